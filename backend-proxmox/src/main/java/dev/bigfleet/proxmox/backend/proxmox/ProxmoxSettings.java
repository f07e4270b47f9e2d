package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ApiToken;
import dev.bigfleet.proxmox.backend.proxmox.client.TokenSecret;
import dev.bigfleet.proxmox.backend.proxmox.client.TransportPolicy;
import dev.bigfleet.proxmox.backend.proxmox.tls.ApiTrust;
import dev.bigfleet.proxmox.backend.proxmox.tls.CertificateFingerprint;
import dev.bigfleet.proxmox.backend.proxmox.tls.PemCertificates;
import dev.bigfleet.proxmox.spi.BackendOption;
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
record ProxmoxSettings(
        URI apiRoot,
        WebUi webUi,
        ApiToken token,
        ApiTrust trust,
        Optional<String> pool,
        String bootstrapPath,
        List<String> bootstrapExec,
        int maxClonesPerNode,
        double memoryOvercommit,
        Optional<VmidRange> vmidRange,
        Optional<String> cloneStorage,
        Duration agentTimeout,
        TransportPolicy transport) {

    ProxmoxSettings {
        Objects.requireNonNull(apiRoot, "apiRoot");
        Objects.requireNonNull(webUi, "webUi");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(trust, "trust");
        bootstrapExec = List.copyOf(bootstrapExec);
    }

    static ProxmoxSettings from(BackendOptions o) {
        URI root = apiRoot(
                o,
                o.get(ProxmoxOptions.API_URL)
                        .orElseThrow(() -> new IllegalArgumentException(o.where(ProxmoxOptions.API_URL)
                                + ": required by the proxmox backend (e.g. https://pve1:8006/api2/json)")));
        String tokenId = o.get(ProxmoxOptions.TOKEN_ID)
                .map(String::trim)
                .orElseThrow(() -> new IllegalArgumentException(
                        o.where(ProxmoxOptions.TOKEN_ID) + ": required by the proxmox backend (USER@REALM!TOKENID)"));
        ApiToken token;
        try {
            token = new ApiToken(tokenId, secret(o));
        } catch (IllegalArgumentException e) {
            if (e.getMessage().startsWith("--")) {
                throw e;
            }
            throw new IllegalArgumentException(o.where(ProxmoxOptions.TOKEN_ID) + ": " + e.getMessage());
        }
        return new ProxmoxSettings(
                root,
                WebUi.from(o, root),
                token,
                trust(o),
                trimmed(o, ProxmoxOptions.POOL),
                bootstrapPath(o),
                bootstrapExec(o),
                positiveInt(o, ProxmoxOptions.MAX_CLONES_PER_NODE),
                overcommit(o),
                vmidRange(o),
                trimmed(o, ProxmoxOptions.CLONE_STORAGE),
                agentTimeout(o),
                TransportPolicy.defaults());
    }

    private static Optional<String> trimmed(BackendOptions o, BackendOption option) {
        return o.get(option).map(String::trim).filter(s -> !s.isEmpty());
    }

    private static Optional<VmidRange> vmidRange(BackendOptions o) {
        try {
            return o.get(ProxmoxOptions.VMID_RANGE).map(VmidRange::parse);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(o.where(ProxmoxOptions.VMID_RANGE) + ": " + e.getMessage());
        }
    }

    ProxmoxSettings withTransport(TransportPolicy policy) {
        return new ProxmoxSettings(
                apiRoot,
                webUi,
                token,
                trust,
                pool,
                bootstrapPath,
                bootstrapExec,
                maxClonesPerNode,
                memoryOvercommit,
                vmidRange,
                cloneStorage,
                agentTimeout,
                policy);
    }

    ProxmoxSettings withAgentTimeout(Duration timeout) {
        return new ProxmoxSettings(
                apiRoot,
                webUi,
                token,
                trust,
                pool,
                bootstrapPath,
                bootstrapExec,
                maxClonesPerNode,
                memoryOvercommit,
                vmidRange,
                cloneStorage,
                timeout,
                transport);
    }

    private static URI apiRoot(BackendOptions o, String text) {
        String flag = o.where(ProxmoxOptions.API_URL);
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(flag + ": \"" + text + "\" is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("http")) {
            throw new IllegalArgumentException(flag + ": http:// would send the API token in clear; use https://");
        }
        if (!scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException(flag + ": \"" + text + "\" must be https://HOST[:PORT]/api2/json");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException(
                    flag + ": \"" + text + "\" must not carry credentials, a query or a fragment");
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
        Optional<String> file = trimmed(o, ProxmoxOptions.TOKEN_FILE);
        String value;
        String flag;
        if (file.isPresent()) {
            flag = o.where(ProxmoxOptions.TOKEN_FILE);
            try {
                value = Files.readString(Path.of(file.get()), StandardCharsets.UTF_8)
                        .trim();
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException(flag + " " + file.get() + ": cannot read: "
                        + e.getClass().getSimpleName());
            }
            if (value.isEmpty()) {
                throw new IllegalArgumentException(flag + " " + file.get() + ": the file is empty");
            }
        } else {
            flag = o.where(ProxmoxOptions.TOKEN_SECRET);
            value = o.get(ProxmoxOptions.TOKEN_SECRET).map(String::trim).orElse("");
            if (value.isEmpty()) {
                throw new IllegalArgumentException(o.where(ProxmoxOptions.TOKEN_FILE) + " / " + flag
                        + ": a token secret is required by the proxmox backend");
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
        Optional<String> caFile = trimmed(o, ProxmoxOptions.CA_FILE);
        if (caFile.isPresent()) {
            try {
                cas = PemCertificates.load(Path.of(caFile.get()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(o.where(ProxmoxOptions.CA_FILE) + ": " + e.getMessage());
            }
        }
        Optional<CertificateFingerprint> pin = Optional.empty();
        Optional<String> fp = o.get(ProxmoxOptions.TLS_FINGERPRINT).filter(s -> !s.isBlank());
        if (fp.isPresent()) {
            try {
                pin = Optional.of(CertificateFingerprint.parse(fp.get()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(o.where(ProxmoxOptions.TLS_FINGERPRINT) + ": " + e.getMessage());
            }
        }
        if (cas.isEmpty() && pin.isEmpty()) {
            throw new IllegalArgumentException(o.where(ProxmoxOptions.CA_FILE) + " / "
                    + o.where(ProxmoxOptions.TLS_FINGERPRINT) + ": TLS verification material"
                    + " is required: give the cluster's CA bundle, the API certificate's SHA-256 fingerprint, or both"
                    + " (certificate checks cannot be turned off)");
        }
        return new ApiTrust(cas, pin);
    }

    private static String bootstrapPath(BackendOptions o) {
        String path = trimmed(o, ProxmoxOptions.BOOTSTRAP_PATH).orElse("");
        if (!path.startsWith("/") || path.endsWith("/") || path.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(
                    o.where(ProxmoxOptions.BOOTSTRAP_PATH) + ": \"" + path + "\" must be an absolute file path");
        }
        return path;
    }

    /** Comma-separated argv; parts trimmed, empty ones dropped; nothing left means {@code /bin/sh}. */
    private static List<String> bootstrapExec(BackendOptions o) {
        List<String> argv = Arrays.stream(
                        o.string(ProxmoxOptions.BOOTSTRAP_EXEC).split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
        return argv.isEmpty() ? List.of("/bin/sh") : argv;
    }

    private static int positiveInt(BackendOptions o, BackendOption option) {
        String v = o.string(option);
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 1) {
                throw new IllegalArgumentException(o.where(option) + ": must be >= 1, got " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(o.where(option) + ": \"" + v + "\" is not a whole number");
        }
    }

    private static double overcommit(BackendOptions o) {
        String v = o.string(ProxmoxOptions.MEMORY_OVERCOMMIT);
        String flag = o.where(ProxmoxOptions.MEMORY_OVERCOMMIT);
        double ratio;
        try {
            ratio = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + ": \"" + v + "\" is not a number");
        }
        if (!(ratio > 0) || Double.isInfinite(ratio)) {
            throw new IllegalArgumentException(
                    flag + ": must be a finite number > 0 (a ratio of node" + " memory, e.g. 1.0), got " + v);
        }
        return ratio;
    }

    private static Duration agentTimeout(BackendOptions o) {
        Duration d = o.duration(ProxmoxOptions.AGENT_TIMEOUT);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(o.where(ProxmoxOptions.AGENT_TIMEOUT) + ": must be > 0");
        }
        return d;
    }

    @Override
    public String toString() {
        // no secret here; the token's toString is its id
        return "api=" + apiRoot + ", ui=" + webUi + ", token=" + token + ", tls="
                + (trust.usesAuthorities() ? "ca" : "")
                + (trust.usesAuthorities() && trust.pin().isPresent() ? "+" : "")
                + (trust.pin().isPresent() ? "pin" : "")
                + pool.map(p -> ", pool=" + p).orElse("") + ", clones/node=" + maxClonesPerNode + ", overcommit="
                + memoryOvercommit + vmidRange.map(r -> ", vmids=" + r).orElse("")
                + cloneStorage.map(s -> ", storage=" + s).orElse("") + ", agent-timeout=" + agentTimeout.toSeconds()
                + "s";
    }
}
