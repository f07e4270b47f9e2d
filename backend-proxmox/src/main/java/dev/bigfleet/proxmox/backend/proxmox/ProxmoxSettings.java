package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ApiToken;
import dev.bigfleet.proxmox.backend.proxmox.client.TokenSecret;
import dev.bigfleet.proxmox.backend.proxmox.client.TransportPolicy;
import dev.bigfleet.proxmox.backend.proxmox.files.WatchedFile;
import dev.bigfleet.proxmox.backend.proxmox.kube.ClusterKubeconfigs;
import dev.bigfleet.proxmox.backend.proxmox.tls.ApiTrust;
import dev.bigfleet.proxmox.backend.proxmox.tls.CertificateFingerprint;
import dev.bigfleet.proxmox.backend.proxmox.tls.PemCertificates;
import dev.bigfleet.proxmox.spi.BackendOption;
import dev.bigfleet.proxmox.spi.BackendOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
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
 * startup error). No message ever holds the token secret, nor the token id when a secret may have
 * been pasted into it. The CA file and the token file are read again while the backend runs, when
 * they change.
 */
record ProxmoxSettings(
        URI apiRoot,
        WebUi webUi,
        ApiToken token,
        ApiTrust trust,
        Optional<String> pool,
        String bootstrapPath,
        List<String> bootstrapExec,
        List<String> drainExec,
        Optional<List<String>> readyExec,
        int maxClonesPerNode,
        double memoryOvercommit,
        Optional<VmidRange> vmidRange,
        Optional<String> cloneStorage,
        List<String> templateTags,
        CloneMode cloneMode,
        Duration agentTimeout,
        TransportPolicy transport,
        ClusterKubeconfigs clusterKubeconfigs) {

    ProxmoxSettings {
        Objects.requireNonNull(apiRoot, "apiRoot");
        Objects.requireNonNull(webUi, "webUi");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(trust, "trust");
        bootstrapExec = List.copyOf(bootstrapExec);
        templateTags = List.copyOf(templateTags);
        Objects.requireNonNull(cloneMode, "cloneMode");
        drainExec = List.copyOf(drainExec);
        readyExec = readyExec.map(List::copyOf);
        Objects.requireNonNull(clusterKubeconfigs, "clusterKubeconfigs");
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
        checkTokenId(o, tokenId);
        ApiToken token = token(o, tokenId);
        return new ProxmoxSettings(
                root,
                WebUi.from(o, root),
                token,
                trust(o),
                trimmed(o, ProxmoxOptions.POOL),
                bootstrapPath(o),
                bootstrapExec(o),
                argv(o, ProxmoxOptions.DRAIN_EXEC),
                readyExec(o),
                positiveInt(o, ProxmoxOptions.MAX_CLONES_PER_NODE),
                overcommit(o),
                vmidRange(o),
                trimmed(o, ProxmoxOptions.CLONE_STORAGE),
                templateTags(o),
                cloneMode(o),
                agentTimeout(o),
                TransportPolicy.defaults(),
                clusterKubeconfigs(o));
    }

    /**
     * {@code --cluster-kubeconfig} and {@code --cluster-kubeconfig-dir}: every kubeconfig given is
     * read and checked now (see {@link ClusterKubeconfigs}).
     */
    private static ClusterKubeconfigs clusterKubeconfigs(BackendOptions o) {
        return ClusterKubeconfigs.parse(
                o.get(ProxmoxOptions.CLUSTER_KUBECONFIG),
                o.where(ProxmoxOptions.CLUSTER_KUBECONFIG),
                o.get(ProxmoxOptions.CLUSTER_KUBECONFIG_DIR),
                o.where(ProxmoxOptions.CLUSTER_KUBECONFIG_DIR));
    }

    /** {@code --template-tags a,b}: Proxmox tags, compared lower-cased; empty when unset. */
    private static List<String> templateTags(BackendOptions o) {
        List<String> tags = Arrays.stream(o.string(ProxmoxOptions.TEMPLATE_TAGS).split(",", -1))
                .map(t -> t.trim().toLowerCase(Locale.ROOT))
                .filter(t -> !t.isEmpty())
                .toList();
        for (String t : tags) {
            if (!t.matches(TypeSettings.TAG)) {
                throw new IllegalArgumentException(o.where(ProxmoxOptions.TEMPLATE_TAGS) + ": \"" + t
                        + "\" is not a Proxmox tag (letters, digits, _ + . -, not starting with + . -)");
            }
        }
        return tags;
    }

    /** {@code --clone-mode full|linked}; linked clones take no {@code --clone-storage} (Proxmox refuses it). */
    private static CloneMode cloneMode(BackendOptions o) {
        String v = o.string(ProxmoxOptions.CLONE_MODE);
        CloneMode mode = CloneMode.parse(v)
                .orElseThrow(() -> new IllegalArgumentException(
                        o.where(ProxmoxOptions.CLONE_MODE) + ": \"" + v + "\" must be full or linked"));
        if (mode == CloneMode.LINKED && trimmed(o, ProxmoxOptions.CLONE_STORAGE).isPresent()) {
            throw new IllegalArgumentException(o.where(ProxmoxOptions.CLONE_MODE) + ": linked clones stay on their"
                    + " template's storage; Proxmox refuses " + o.where(ProxmoxOptions.CLONE_STORAGE)
                    + " for them (parameter 'storage' not allowed for linked clones)");
        }
        return mode;
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
                drainExec,
                readyExec,
                maxClonesPerNode,
                memoryOvercommit,
                vmidRange,
                cloneStorage,
                templateTags,
                cloneMode,
                agentTimeout,
                policy,
                clusterKubeconfigs);
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
                drainExec,
                readyExec,
                maxClonesPerNode,
                memoryOvercommit,
                vmidRange,
                cloneStorage,
                templateTags,
                cloneMode,
                timeout,
                transport,
                clusterKubeconfigs);
    }

    private static URI apiRoot(BackendOptions o, String text) {
        String flag = o.where(ProxmoxOptions.API_URL);
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    flag + ": \"" + withoutCredentials(text) + "\" is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("http")) {
            throw new IllegalArgumentException(flag + ": http:// would send the API token in clear; use https://");
        }
        if (!scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException(
                    flag + ": \"" + withoutCredentials(text) + "\" must be https://HOST[:PORT]/api2/json");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException(flag + ": \"" + withoutCredentials(text)
                    + "\" must not carry credentials, a query or a fragment" + " (the token goes in the token flags)");
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

    /** A URL as a message may show it: whatever stands before its last {@code @} may be a password. */
    private static String withoutCredentials(String url) {
        return url.trim().replaceAll("^([A-Za-z][A-Za-z0-9+.-]*://)?.*@", "$1<credentials>@");
    }

    /**
     * The id is checked before the secret, and its message never repeats it: a secret pasted into
     * the id (the simulator's {@code --token} form, {@code USER@REALM!TOKENID=SECRET}) must not end
     * up on the terminal.
     */
    private static void checkTokenId(BackendOptions o, String tokenId) {
        try {
            ApiToken.checkId(tokenId);
        } catch (ApiToken.PastedSecretException e) {
            boolean secretGiven = trimmed(o, ProxmoxOptions.TOKEN_FILE).isPresent()
                    || trimmed(o, ProxmoxOptions.TOKEN_SECRET).isPresent();
            throw new IllegalArgumentException(o.where(ProxmoxOptions.TOKEN_ID) + ": " + e.getMessage() + "; the secret"
                    + " belongs in " + o.where(ProxmoxOptions.TOKEN_FILE) + " (a file holding only it) or "
                    + o.where(ProxmoxOptions.TOKEN_SECRET)
                    + (secretGiven ? ", which is set too: drop the \"=\" and what follows it from the id" : ""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(o.where(ProxmoxOptions.TOKEN_ID) + ": " + e.getMessage());
        }
    }

    /** The file wins over the inline value; both are trimmed. The file is read again when it changes. */
    private static ApiToken token(BackendOptions o, String tokenId) {
        Optional<String> file = trimmed(o, ProxmoxOptions.TOKEN_FILE);
        if (file.isPresent()) {
            String flag = o.where(ProxmoxOptions.TOKEN_FILE) + " " + file.get();
            return new ApiToken(tokenId, WatchedFile.open(Path.of(file.get()), flag, ProxmoxSettings::secretFromFile));
        }
        String flag = o.where(ProxmoxOptions.TOKEN_SECRET);
        String value = o.get(ProxmoxOptions.TOKEN_SECRET).map(String::trim).orElse("");
        if (value.isEmpty()) {
            throw new IllegalArgumentException(o.where(ProxmoxOptions.TOKEN_FILE) + " / " + flag
                    + ": a token secret is required by the proxmox backend");
        }
        try {
            return new ApiToken(tokenId, new TokenSecret(value));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + ": " + e.getMessage());
        }
    }

    /** A token file's secret: its content, trimmed (a trailing newline is the usual). */
    private static TokenSecret secretFromFile(byte[] content) {
        String value = new String(content, StandardCharsets.UTF_8).trim();
        if (value.isEmpty()) {
            throw new IllegalArgumentException("the file is empty");
        }
        return new TokenSecret(value);
    }

    private static ApiTrust trust(BackendOptions o) {
        Optional<WatchedFile<List<X509Certificate>>> cas = Optional.empty();
        Optional<String> caFile = trimmed(o, ProxmoxOptions.CA_FILE);
        if (caFile.isPresent()) {
            Path path = Path.of(caFile.get());
            cas = Optional.of(
                    WatchedFile.open(path, o.where(ProxmoxOptions.CA_FILE) + ": " + path, PemCertificates::parse));
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
        return cas.isPresent() ? new ApiTrust(cas.get(), pin) : new ApiTrust(List.of(), pin);
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
        List<String> argv = argv(o, ProxmoxOptions.BOOTSTRAP_EXEC);
        return argv.isEmpty() ? List.of("/bin/sh") : argv;
    }

    /**
     * {@code --ready-exec}: the readiness probe's argv; unset or empty for the built-in probe (an
     * empty list), {@code none} for no readiness check (empty).
     */
    private static Optional<List<String>> readyExec(BackendOptions o) {
        List<String> argv = argv(o, ProxmoxOptions.READY_EXEC);
        if (argv.size() == 1 && argv.get(0).equals("none")) {
            return Optional.empty();
        }
        return Optional.of(argv);
    }

    /** A comma-separated argv option; parts trimmed, empty ones dropped (none: unset). */
    private static List<String> argv(BackendOptions o, BackendOption option) {
        return Arrays.stream(o.get(option).orElse("").split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
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
                + cloneStorage.map(s -> ", storage=" + s).orElse("")
                + (templateTags.isEmpty() ? "" : ", template-tags=" + String.join(",", templateTags))
                + ", clone-mode=" + cloneMode + ", agent-timeout=" + agentTimeout.toSeconds() + "s"
                + (clusterKubeconfigs.isEmpty() ? "" : ", " + clusterKubeconfigs);
    }
}
