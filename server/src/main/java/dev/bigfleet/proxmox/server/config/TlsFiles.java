package dev.bigfleet.proxmox.server.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A listener's TLS material, PEM files: its certificate chain, its private key (PKCS#8) and,
 * optionally, the CA that client certificates are verified against. {@code flags} names the flags
 * they came from, so an unusable file is reported by the flag that named it.
 */
public record TlsFiles(Path certificate, Path privateKey, Optional<Path> clientCa, Flags flags) {
    public TlsFiles {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(clientCa, "clientCa");
        Objects.requireNonNull(flags, "flags");
    }

    /** The names of the three flags of one listener. */
    public record Flags(String certificate, String privateKey, String clientCa) {
        /** The gRPC port's: {@code --tls-cert}, {@code --tls-key}, {@code --tls-ca}. */
        public static final Flags GRPC = new Flags("--tls-cert", "--tls-key", "--tls-ca");

        /** The HTTP port's: {@code --metrics-tls-cert}, {@code --metrics-tls-key}, {@code --metrics-tls-ca}. */
        public static final Flags HTTP = new Flags("--metrics-tls-cert", "--metrics-tls-key", "--metrics-tls-ca");
    }
}
