package dev.bigfleet.proxmox.server.tls;

import dev.bigfleet.proxmox.server.config.TlsFiles;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.server.startup.ErrorMessages;
import io.grpc.netty.shaded.io.netty.handler.ssl.JdkSslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;

/**
 * A listener's PEM files ({@link TlsFiles}) read into a TLS 1.3 server context, one reader for both
 * ports: Netty's context builder for the gRPC port, and a JDK {@link SSLContext} built from it for
 * the HTTP port. Each file is read on its own, so an unusable one stops startup with one line
 * naming the flag that gave it; then a handshake with the material ({@link SelfHandshake}) makes
 * sure a client can use it.
 */
public final class ServerTls {
    /** The only protocol either port speaks. */
    public static final String PROTOCOL = "TLSv1.3";

    private ServerTls() {}

    /**
     * Netty's server context builder over the files: TLS 1.3 only; with a client CA, client
     * certificates are verified against it (whether one is required is the caller's choice).
     */
    public static SslContextBuilder builder(TlsFiles files) throws ConfigException {
        SslContextBuilder builder = read(files);
        jdkContext(files, builder);
        // the caller picks the provider (gRPC prefers OpenSSL)
        return builder.sslProvider(null);
    }

    /**
     * The same material as a JDK context, for a server that makes its own engines (Jetty). The
     * engine settings (protocols, whether to ask for a client certificate) are the server's to set.
     */
    public static SSLContext jdkContext(TlsFiles files) throws ConfigException {
        return jdkContext(files, read(files));
    }

    /** Builds the JDK context and shakes hands with it, so material no client could use stops startup. */
    private static SSLContext jdkContext(TlsFiles files, SslContextBuilder builder) throws ConfigException {
        try {
            SSLContext context =
                    ((JdkSslContext) builder.sslProvider(SslProvider.JDK).build()).context();
            SelfHandshake.check(context, files.certificate());
            return context;
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            throw new ConfigException(
                    files.flags().certificate() + "/" + files.flags().privateKey()
                            + ": a TLS 1.3 handshake with them fails (is the key the certificate's own?): "
                            + ErrorMessages.rootCause(e));
        }
    }

    private static SslContextBuilder read(TlsFiles files) throws ConfigException {
        requireCertificates(files.flags().certificate(), files.certificate());
        SslContextBuilder builder;
        try {
            builder = SslContextBuilder.forServer(
                    files.certificate().toFile(), files.privateKey().toFile());
        } catch (IllegalArgumentException e) {
            // the certificates were read above: what failed is the key
            throw new ConfigException(files.flags().privateKey() + " " + files.privateKey()
                    + ": not an unencrypted PKCS#8 PEM private key (BEGIN PRIVATE KEY): "
                    + ErrorMessages.rootCause(e));
        }
        builder.protocols(PROTOCOL);
        if (files.clientCa().isPresent()) {
            Path ca = files.clientCa().get();
            requireCertificates(files.flags().clientCa(), ca);
            builder.trustManager(ca.toFile());
        }
        return builder;
    }

    /** Fails naming {@code flag} unless {@code file} holds at least one PEM certificate. */
    private static void requireCertificates(String flag, Path file) throws ConfigException {
        File pem = file.toFile();
        try {
            // Netty's reader of PEM certificates, the one the server context reads them with
            SslContextBuilder.forClient().trustManager(pem);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(flag + " " + file + ": no PEM certificate (BEGIN CERTIFICATE) in it: "
                    + ErrorMessages.rootCause(e));
        }
    }
}
