package dev.bigfleet.proxmox.testing;

import java.nio.file.Path;
import java.util.Objects;

/** A client certificate of {@link TestingCertificates} and its private key (PKCS#8), PEM files. */
public record ClientCertificate(Path certificate, Path key) {
    public ClientCertificate {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(key, "key");
    }
}
