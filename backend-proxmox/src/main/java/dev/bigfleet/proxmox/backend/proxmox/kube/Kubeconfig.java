package dev.bigfleet.proxmox.backend.proxmox.kube;

import dev.bigfleet.proxmox.backend.proxmox.tls.PemCertificates;
import io.fabric8.kubernetes.api.model.AuthInfo;
import io.fabric8.kubernetes.api.model.Cluster;
import io.fabric8.kubernetes.api.model.Context;
import io.fabric8.kubernetes.api.model.NamedAuthInfo;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One workload cluster's kubeconfig, checked: its current context names a cluster with an {@code
 * https://} server and a user, the cluster's certificate is verified (an {@code
 * insecure-skip-tls-verify} kubeconfig is refused), and the files it names are there. A mistake is
 * an {@link IllegalArgumentException} with a message that never quotes the file's content (it holds
 * credentials): at most a key, a line number or the server's URL.
 *
 * <p>The client's configuration is read by fabric8 from the file itself ({@link
 * Config#fromKubeconfig(java.io.File)}), so relative paths in it are taken from the file's
 * directory and a credential plugin's token is fetched again when it expires.
 */
final class Kubeconfig {
    /** How long one request to the cluster's API may take. */
    static final int REQUEST_TIMEOUT_MILLIS = 10_000;

    /** How long connecting to the cluster's API may take. */
    static final int CONNECT_TIMEOUT_MILLIS = 10_000;

    private final Config config;
    private final String server;
    private final String context;

    private Kubeconfig(Config config, String server, String context) {
        this.config = config;
        this.server = server;
        this.context = context;
    }

    /**
     * Checks {@code content} (the file's bytes, as read) and reads the client's configuration from
     * {@code file}.
     *
     * @throws IllegalArgumentException saying what is wrong, without quoting the content
     */
    static Kubeconfig parse(Path file, byte[] content) {
        String text = new String(content, StandardCharsets.UTF_8);
        if (text.isBlank()) {
            throw new IllegalArgumentException("the file is empty");
        }
        io.fabric8.kubernetes.api.model.Config model;
        try {
            model = Serialization.unmarshal(text, io.fabric8.kubernetes.api.model.Config.class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("is not a kubeconfig: " + YamlProblem.describe(e));
        }
        if (model == null) {
            throw new IllegalArgumentException("is not a kubeconfig: it holds no YAML document");
        }
        String contextName = Optional.ofNullable(model.getCurrentContext())
                .filter(s -> !s.isBlank())
                .orElseThrow(() -> new IllegalArgumentException("names no current-context"));
        Context ctx = named(model.getContexts(), NamedContext::getName, contextName)
                .map(NamedContext::getContext)
                .orElseThrow(() -> new IllegalArgumentException(
                        "its current-context \"" + contextName + "\" is not among its contexts"));
        String clusterName = Optional.ofNullable(ctx.getCluster())
                .orElseThrow(() -> new IllegalArgumentException("context \"" + contextName + "\" names no cluster"));
        Cluster cluster = named(model.getClusters(), NamedCluster::getName, clusterName)
                .map(NamedCluster::getCluster)
                .orElseThrow(() -> new IllegalArgumentException("the cluster \"" + clusterName + "\" of context \""
                        + contextName + "\" is not among its clusters"));
        if (Boolean.TRUE.equals(cluster.getInsecureSkipTlsVerify())) {
            throw new IllegalArgumentException("cluster \"" + clusterName + "\" sets insecure-skip-tls-verify;"
                    + " the cluster's certificate is always verified: give its CA as certificate-authority-data"
                    + " (or certificate-authority) instead");
        }
        String server = server(clusterName, cluster.getServer());
        Path dir = file.toAbsolutePath().getParent();
        checkAuthority(clusterName, cluster, dir);
        String userName = Optional.ofNullable(ctx.getUser())
                .filter(s -> !s.isBlank())
                .orElseThrow(() -> new IllegalArgumentException(
                        "context \"" + contextName + "\" names no user: the provider needs credentials"));
        AuthInfo user = named(model.getUsers(), NamedAuthInfo::getName, userName)
                .map(NamedAuthInfo::getUser)
                .orElseThrow(() -> new IllegalArgumentException(
                        "the user \"" + userName + "\" of context \"" + contextName + "\" is not among its users"));
        checkCredentials(userName, user, dir);

        Config config;
        try {
            config = Config.fromKubeconfig(file.toFile());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("is not a kubeconfig: " + YamlProblem.describe(e));
        }
        if (config.isTrustCerts() || config.isDisableHostnameVerification()) {
            // the file changed between the two reads; its next check sees the new content
            throw new IllegalArgumentException("cluster \"" + clusterName + "\" sets insecure-skip-tls-verify");
        }
        config.setTrustCerts(false);
        config.setDisableHostnameVerification(false);
        config.setRequestTimeout(REQUEST_TIMEOUT_MILLIS);
        config.setConnectionTimeout(CONNECT_TIMEOUT_MILLIS);
        // no retries hidden in the client: the readiness and drain loops retry, within their deadline
        config.setRequestRetryBackoffLimit(0);
        return new Kubeconfig(config, server, contextName);
    }

    /** The client's configuration; a copy is never needed, the client does not change it. */
    Config config() {
        return config;
    }

    /** The API server's URL, for messages. */
    String server() {
        return server;
    }

    @Override
    public String toString() {
        return "context " + context + " at " + server;
    }

    private static <T> Optional<T> named(List<T> entries, java.util.function.Function<T, String> name, String wanted) {
        if (entries == null) {
            return Optional.empty();
        }
        return entries.stream()
                .filter(e -> e != null && wanted.equals(name.apply(e)))
                .findFirst();
    }

    private static String server(String clusterName, String server) {
        String where = "cluster \"" + clusterName + "\": server";
        if (server == null || server.isBlank()) {
            throw new IllegalArgumentException(where + " is not set");
        }
        URI uri;
        try {
            uri = new URI(server.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(where + " is not a URL: " + e.getReason());
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException(where + " must not carry credentials in its URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException(where + " \"" + uri + "\" must be https://HOST[:PORT]"
                    + (scheme.equals("http") ? " (http:// would send the credentials in clear)" : ""));
        }
        return uri.toString();
    }

    /** The CA, when the kubeconfig gives one, must hold certificates; else the JVM's trust roots are used. */
    private static void checkAuthority(String clusterName, Cluster cluster, Path dir) {
        String where = "cluster \"" + clusterName + "\": ";
        String data = cluster.getCertificateAuthorityData();
        if (data != null && !data.isBlank()) {
            byte[] pem;
            try {
                pem = Base64.getMimeDecoder().decode(data.trim());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + "certificate-authority-data is not base64");
            }
            try {
                PemCertificates.parse(pem);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + "certificate-authority-data: " + e.getMessage());
            }
            return;
        }
        String file = cluster.getCertificateAuthority();
        if (file != null && !file.isBlank()) {
            Path path = resolve(dir, file);
            checkFile(where + "certificate-authority", file, dir);
            try {
                PemCertificates.parse(Files.readAllBytes(path));
            } catch (IllegalArgumentException | java.io.IOException e) {
                throw new IllegalArgumentException(where + "certificate-authority " + path + ": " + e.getMessage());
            }
        }
    }

    /** The user must present something: a token, a client certificate and key, a plugin, a password. */
    private static void checkCredentials(String userName, AuthInfo user, Path dir) {
        String where = "user \"" + userName + "\": ";
        if (!blank(user.getTokenFile())) {
            // fabric8's client does not read tokenFile: the user would go anonymous
            throw new IllegalArgumentException(where + "tokenFile is not supported; put the token itself in token");
        }
        checkFile(where + "client-certificate", user.getClientCertificate(), dir);
        checkFile(where + "client-key", user.getClientKey(), dir);
        boolean certificate = (!blank(user.getClientCertificate()) || !blank(user.getClientCertificateData()))
                && (!blank(user.getClientKey()) || !blank(user.getClientKeyData()));
        boolean password = !blank(user.getUsername()) && !blank(user.getPassword());
        if (blank(user.getToken())
                && !certificate
                && !password
                && user.getExec() == null
                && user.getAuthProvider() == null) {
            throw new IllegalArgumentException(
                    where + "holds no credentials (a token, a client certificate and" + " key, or an exec plugin)");
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static void checkFile(String what, String file, Path dir) {
        if (file == null || file.isBlank()) {
            return;
        }
        Path path = resolve(dir, file);
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new IllegalArgumentException(what + " " + path + " is not a readable file");
        }
    }

    private static Path resolve(Path dir, String file) {
        Path p = Path.of(file.trim());
        return p.isAbsolute() || dir == null ? p : dir.resolve(p);
    }
}
