package dev.bigfleet.proxmox.ctl;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.TlsChannelCredentials;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * Where the provider is, how to reach it (plaintext, TLS, or mTLS with a client certificate), how
 * long a call may take and how results are printed. Given before or after the command.
 */
final class CallOptions {
    @Option(
            names = "--addr",
            scope = ScopeType.INHERIT,
            paramLabel = "HOST:PORT",
            defaultValue = "${env:BIGFLEETCTL_ADDR:-localhost:9000}",
            description = "The provider's gRPC address (default: ${DEFAULT-VALUE}); :PORT means localhost.")
    String addr;

    @Option(
            names = "--tls",
            scope = ScopeType.INHERIT,
            description =
                    "Use TLS, verifying the server against the system's trust roots (implied by --tls-ca, --tls-cert).")
    boolean tls;

    @Option(
            names = "--tls-ca",
            scope = ScopeType.INHERIT,
            paramLabel = "FILE",
            description = "PEM bundle: the only trust roots for the server's certificate.")
    Path tlsCa;

    @Option(
            names = "--tls-cert",
            scope = ScopeType.INHERIT,
            paramLabel = "FILE",
            description = "PEM client certificate chain for mTLS (with --tls-key).")
    Path tlsCert;

    @Option(
            names = "--tls-key",
            scope = ScopeType.INHERIT,
            paramLabel = "FILE",
            description = "PEM (PKCS#8) private key of --tls-cert.")
    Path tlsKey;

    @Option(
            names = "--tls-server-name",
            scope = ScopeType.INHERIT,
            paramLabel = "NAME",
            description = "The name the server's certificate must carry, when it is not the host of --addr.")
    String tlsServerName;

    @Option(
            names = "--timeout",
            scope = ScopeType.INHERIT,
            paramLabel = "DURATION",
            defaultValue = "30s",
            converter = DurationConverter.class,
            description = "Deadline of each call, e.g. 500ms, 30s, 2m (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(
            names = {"-o", "--output"},
            scope = ScopeType.INHERIT,
            paramLabel = "FORMAT",
            defaultValue = "table",
            description = "table (aligned columns) or json (default: ${DEFAULT-VALUE}).")
    OutputFormat output;

    /** A channel to the provider; the caller shuts it down. */
    ManagedChannel openChannel() throws IOException {
        Address address = Address.parse(addr);
        ManagedChannelBuilder<?> builder =
                Grpc.newChannelBuilderForAddress(address.host(), address.port(), credentials());
        if (tlsServerName != null) {
            builder.overrideAuthority(tlsServerName);
        }
        return builder.build();
    }

    private ChannelCredentials credentials() throws IOException {
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together");
        }
        if (!tls && tlsCa == null && tlsCert == null) {
            if (tlsServerName != null) {
                throw new IllegalArgumentException("--tls-server-name needs TLS (--tls or --tls-ca)");
            }
            return InsecureChannelCredentials.create();
        }
        TlsChannelCredentials.Builder creds = TlsChannelCredentials.newBuilder();
        if (tlsCa != null) {
            creds.trustManager(InputFiles.readable(tlsCa, "--tls-ca"));
        }
        if (tlsCert != null) {
            creds.keyManager(InputFiles.readable(tlsCert, "--tls-cert"), InputFiles.readable(tlsKey, "--tls-key"));
        }
        return creds.build();
    }
}
