package dev.bigfleet.proxmox.server.cli;

import dev.bigfleet.proxmox.server.startup.ConfigException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --state postgresql://HOST[:PORT]/DATABASE?user=USER[&sslmode=...]} into the driver's URL.
 * The password never belongs in it (it comes from {@code --state-password-file}), and TLS is either
 * verified ({@code verify-full}, the default, or {@code verify-ca}) or off ({@code disable}).
 */
final class PostgresUrl {
    static final String SCHEME = "postgresql://";
    private static final List<String> PARAMETERS =
            List.of("user", "sslmode", "sslrootcert", "sslcert", "sslkey", "connectTimeout");
    private static final List<String> SSL_MODES = List.of("verify-full", "verify-ca", "disable");

    /** What the URL says. */
    record Parsed(String jdbcUrl, String user) {}

    private PostgresUrl() {}

    static boolean isPostgres(String state) {
        return state.startsWith(SCHEME) || state.startsWith("postgres://");
    }

    static Parsed parse(String state) throws ConfigException {
        URI uri;
        try {
            uri = new URI(state);
        } catch (URISyntaxException e) {
            throw new ConfigException("--state: not a postgresql:// URL: " + e.getReason());
        }
        if (uri.getRawUserInfo() != null) {
            // never echo it: it may hold a password
            throw new ConfigException("--state: put the user in ?user= and the password in --state-password-file,"
                    + " not before the host");
        }
        String host = uri.getHost();
        if (host == null || host.isBlank()) {
            throw new ConfigException(
                    "--state: " + SCHEME + " needs a host: " + SCHEME + "HOST:PORT/DATABASE?user=USER");
        }
        int port = uri.getPort() < 0 ? 5432 : uri.getPort();
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        String database = path.startsWith("/") ? path.substring(1) : path;
        if (database.isEmpty() || database.contains("/")) {
            throw new ConfigException("--state: " + SCHEME + " needs one database name after the host: " + SCHEME
                    + "HOST:PORT/DATABASE?user=USER");
        }
        Map<String, String> parameters = parameters(uri.getRawQuery());
        String user = parameters.remove("user");
        if (user == null || user.isBlank()) {
            throw new ConfigException("--state: " + SCHEME + " needs ?user=USER");
        }
        String sslmode = parameters.getOrDefault("sslmode", "verify-full");
        if (!SSL_MODES.contains(sslmode)) {
            throw new ConfigException("--state: sslmode=" + sslmode + " is not allowed: TLS to the database is"
                    + " verify-full (the default), verify-ca, or disable");
        }
        parameters.put("sslmode", sslmode);
        StringBuilder jdbc = new StringBuilder("jdbc:postgresql://")
                .append(host)
                .append(':')
                .append(port)
                .append('/')
                .append(database);
        char separator = '?';
        for (Map.Entry<String, String> p : parameters.entrySet()) {
            jdbc.append(separator)
                    .append(p.getKey())
                    .append('=')
                    .append(URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8));
            separator = '&';
        }
        return new Parsed(jdbc.toString(), user);
    }

    private static Map<String, String> parameters(String rawQuery) throws ConfigException {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return parameters;
        }
        for (String pair : rawQuery.split("&", -1)) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            if (key.equalsIgnoreCase("password") || key.equalsIgnoreCase("sslpassword")) {
                throw new ConfigException(
                        "--state: the password must not be in the URL; give it in" + " --state-password-file");
            }
            if (!PARAMETERS.contains(key)) {
                throw new ConfigException(
                        "--state: unknown parameter \"" + key + "\"; known: " + String.join(", ", PARAMETERS));
            }
            if (parameters.put(key, value) != null) {
                throw new ConfigException("--state: parameter \"" + key + "\" given twice");
            }
        }
        return parameters;
    }
}
