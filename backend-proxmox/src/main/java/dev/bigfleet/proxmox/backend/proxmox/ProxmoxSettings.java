package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ApiToken;
import dev.bigfleet.proxmox.backend.proxmox.client.TokenSecret;
import dev.bigfleet.proxmox.backend.proxmox.client.TransportPolicy;
import dev.bigfleet.proxmox.backend.proxmox.tls.ApiTrust;
import dev.bigfleet.proxmox.backend.proxmox.tls.CertificateFingerprint;
import dev.bigfleet.proxmox.backend.proxmox.tls.PemCertificates;
import dev.bigfleet.proxmox.spi.BackendOptions;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The real backend's settings, read from the flags and validated; every mistake is an {@link
 * IllegalArgumentException} with one line that names the flag (the server turns it into a
 * startup error). The token secret is never part of a message.
 */
record ProxmoxSettings(URI apiRoot, ApiToken token, ApiTrust trust, Optional<String> pool, String bootstrapPath,
        List<String> bootstrapExec, int maxClonesPerNode, double memoryOvercommit, Optional<VmidRange> vmidRange,
        Optional<String> cloneStorage, Duration agentTimeout, TransportPolicy transport) {

    static final String DEFAULT_BOOTSTRAP_PATH = "/run/bigfleet-bootstrap";
    static final Duration DEFAULT_AGENT_TIMEOUT = Duration.ofMinutes(4);
    static final int DEFAULT_MAX_CLONES_PER_NODE = 2;

    ProxmoxSettings {
        Objects.requireNonNull(apiRoot, "apiRoot");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(trust, "trust");
        bootstrapExec = List.copyOf(bootstrapExec);
    }

    static ProxmoxSettings from(BackendOptions o) {
        URI root = apiRoot(o.get("proxmox-api-url").orElseThrow(() -> new IllegalArgumentException(
                "--proxmox-api-url: required by the proxmox backend (e.g. https://pve1:8006/api2/json)")));
        String tokenId = o.get("proxmox-token-id").map(String::trim).orElseThrow(() -> new IllegalArgumentException(
                "--proxmox-token-id: required by the proxmox backend (USER@REALM!TOKENID)"));
        ApiToken token;
        try {
            token = new ApiToken(tokenId, secret(o));
        } catch (IllegalArgumentException e) {
            if (e.getMessage().startsWith("--")) {
                throw e;
            }
            throw new IllegalArgumentException("--proxmox-token-id: " + e.getMessage());
        }
        return new ProxmoxSettings(root, token, trust(o), o.get("proxmox-pool").map(String::trim).filter(s -> !s.isEmpty()),
                bootstrapPath(o), bootstrapExec(o), positiveInt(o, "max-concurrent-clones-per-node",
                        DEFAULT_MAX_CLONES_PER_NODE), overcommit(o),
                o.get("vmid-range").map(VmidRange::parse), o.get("clone-storage").map(String::trim)
                        .filter(s -> !s.isEmpty()), agentTimeout(o), TransportPolicy.defaults());
    }

    ProxmoxSettings withTransport(TransportPolicy policy) {
        return new ProxmoxSettings(apiRoot, token, trust, pool, bootstrapPath, bootstrapExec, maxClonesPerNode,
                memoryOvercommit, vmidRange, cloneStorage, agentTimeout, policy);
    }

    ProxmoxSettings withAgentTimeout(Duration timeout) {
        return new ProxmoxSettings(apiRoot, token, trust, pool, bootstrapPath, bootstrapExec, maxClonesPerNode,
                memoryOvercommit, vmidRange, cloneStorage, timeout, transport);
    }

    private static URI apiRoot(String text) {
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("--proxmox-api-url: \"" + text + "\" is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("http")) {
            throw new IllegalArgumentException("--proxmox-api-url: http:// would send the API token in clear; use https://");
        }
        if (!scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException("--proxmox-api-url: \"" + text + "\" must be https://HOST[:PORT]/api2/json");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("--proxmox-api-url: \"" + text
                    + "\" must not carry credentials, a query or a fragment");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (path.isEmpty()) {
            path = "/api2/json";
        }
        return URI.create("https://" + uri.getRawAuthority() + path);
    }

    /** The file wins over the inline value; both are trimmed. */
    private static TokenSecret secret(BackendOptions o) {
        Optional<String> file = o.get("proxmox-token-file").map(String::trim).filter(s -> !s.isEmpty());
        String value;
        String flag;
        if (file.isPresent()) {
            flag = "--proxmox-token-file";
            try {
                value = Files.readString(Path.of(file.get()), StandardCharsets.UTF_8).trim();
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException(flag + " " + file.get() + ": cannot read: " + e.getClass().getSimpleName());
            }
            if (value.isEmpty()) {
                throw new IllegalArgumentException(flag + " " + file.get() + ": the file is empty");
            }
        } else {
            flag = "--proxmox-token-secret";
            value = o.get("proxmox-token-secret").map(String::trim).orElse("");
            if (value.isEmpty()) {
                throw new IllegalArgumentException("--proxmox-token-file / --proxmox-token-secret: a token secret is"
                        + " required by the proxmox backend");
            }
        }
        try {
            return new TokenSecret(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + ": " + e.getMessage());
        }
    }

    private static ApiTrust trust(BackendOptions o) {
        List<X509Certificate> cas = List.of();
        Optional<String> caFile = o.get("proxmox-ca-file").map(String::trim).filter(s -> !s.isEmpty());
        if (caFile.isPresent()) {
            try {
                cas = PemCertificates.load(Path.of(caFile.get()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--proxmox-ca-file: " + e.getMessage());
            }
        }
        Optional<CertificateFingerprint> pin = Optional.empty();
        Optional<String> fp = o.get("proxmox-tls-fingerprint").filter(s -> !s.isBlank());
        if (fp.isPresent()) {
            try {
                pin = Optional.of(CertificateFingerprint.parse(fp.get()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--proxmox-tls-fingerprint: " + e.getMessage());
            }
        }
        if (cas.isEmpty() && pin.isEmpty()) {
            throw new IllegalArgumentException("--proxmox-ca-file / --proxmox-tls-fingerprint: TLS verification material"
                    + " is required: give the cluster's CA bundle, the API certificate's SHA-256 fingerprint, or both"
                    + " (certificate checks cannot be turned off)");
        }
        return new ApiTrust(cas, pin);
    }

    private static String bootstrapPath(BackendOptions o) {
        String path = o.get("bootstrap-path").map(String::trim).filter(s -> !s.isEmpty()).orElse(DEFAULT_BOOTSTRAP_PATH);
        if (!path.startsWith("/") || path.endsWith("/") || path.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("--bootstrap-path: \"" + path + "\" must be an absolute file path");
        }
        return path;
    }

    /** Comma-separated argv; parts trimmed, empty ones dropped; nothing left means {@code /bin/sh}. */
    private static List<String> bootstrapExec(BackendOptions o) {
        List<String> argv = Arrays.stream(o.string("bootstrap-exec", "/bin/sh").split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
        return argv.isEmpty() ? List.of("/bin/sh") : argv;
    }

    private static int positiveInt(BackendOptions o, String name, int fallback) {
        Optional<String> v = o.get(name);
        if (v.isEmpty()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v.get().trim());
            if (n < 1) {
                throw new IllegalArgumentException("--" + name + ": must be >= 1, got " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + ": \"" + v.get() + "\" is not a whole number");
        }
    }

    private static double overcommit(BackendOptions o) {
        Optional<String> v = o.get("memory-overcommit");
        if (v.isEmpty()) {
            return 1.0;
        }
        double ratio;
        try {
            ratio = Double.parseDouble(v.get().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--memory-overcommit: \"" + v.get() + "\" is not a number");
        }
        if (!(ratio > 0) || Double.isInfinite(ratio)) {
            throw new IllegalArgumentException("--memory-overcommit: must be a finite number > 0 (a ratio of node"
                    + " memory, e.g. 1.0), got " + v.get());
        }
        return ratio;
    }

    private static Duration agentTimeout(BackendOptions o) {
        Duration d = o.duration("agent-timeout", DEFAULT_AGENT_TIMEOUT);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("--agent-timeout: must be > 0");
        }
        return d;
    }

    @Override
    public String toString() {
        // no secret here; the token's toString is its id
        return "api=" + apiRoot + ", token=" + token + ", tls=" + (trust.usesAuthorities() ? "ca" : "")
                + (trust.usesAuthorities() && trust.pin().isPresent() ? "+" : "") + (trust.pin().isPresent() ? "pin" : "")
                + pool.map(p -> ", pool=" + p).orElse("") + ", clones/node=" + maxClonesPerNode + ", overcommit="
                + memoryOvercommit + vmidRange.map(r -> ", vmids=" + r).orElse("")
                + cloneStorage.map(s -> ", storage=" + s).orElse("") + ", agent-timeout=" + agentTimeout.toSeconds() + "s";
    }
}
