package dev.bigfleet.proxmox.backend.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.spi.BackendOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProxmoxSettingsTest {
    private static final String PIN = "ab:".repeat(31) + "ab";

    private static ProxmoxSettings parse(Map<String, String> overrides) {
        Map<String, String> o = new HashMap<>(Map.of(
                "api-url", "https://pve1:8006/api2/json",
                "token-id", "bigfleet@pve!autoscaler",
                "token-secret", "s3cret-value",
                "tls-fingerprint", PIN));
        o.putAll(overrides);
        o.values().removeIf(String::isEmpty);
        return ProxmoxSettings.from(BackendOptions.of(o));
    }

    private static void refused(Map<String, String> overrides, String message) {
        assertThatThrownBy(() -> parse(overrides))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message)
                .hasMessageNotContaining("s3cret-value");
    }

    @Test
    void defaults() {
        ProxmoxSettings s = parse(Map.of());
        assertThat(s.apiRoot().toString()).isEqualTo("https://pve1:8006/api2/json");
        assertThat(s.bootstrapPath()).isEqualTo("/run/bigfleet-bootstrap");
        assertThat(s.bootstrapExec()).containsExactly("/bin/sh");
        assertThat(s.drainExec()).as("the built-in kubectl drain").isEmpty();
        assertThat(s.maxClonesPerNode()).isEqualTo(2);
        assertThat(s.memoryOvercommit()).isEqualTo(1.0);
        assertThat(s.vmidRange()).isEmpty();
        assertThat(s.cloneStorage()).isEmpty();
        assertThat(s.pool()).isEmpty();
        assertThat(s.agentTimeout()).isEqualTo(Duration.ofMinutes(4));
        assertThat(s.templateTags()).isEmpty();
        assertThat(s.cloneMode()).isEqualTo(CloneMode.FULL);
        assertThat(s.toString()).doesNotContain("s3cret-value").contains("bigfleet@pve!autoscaler");
    }

    @Test
    void clusterKubeconfigsAreCheckedAtStartupNamingTheFlag(@TempDir Path dir) throws Exception {
        assertThat(parse(Map.of()).clusterKubeconfigs().isEmpty()).isTrue();
        Path missing = dir.resolve("prod-1.yaml");
        refused(
                Map.of("cluster-kubeconfig", "prod-1=" + missing),
                "--cluster-kubeconfig prod-1=" + missing + ": cannot read: no such file");
        refused(
                Map.of("cluster-kubeconfig-dir", missing.toString()),
                "--cluster-kubeconfig-dir " + missing + ": not a directory");
        Path empty = Files.createDirectory(dir.resolve("kubeconfigs"));
        ProxmoxSettings s = parse(Map.of("cluster-kubeconfig-dir", empty.toString()));
        assertThat(s.clusterKubeconfigs().isEmpty()).isFalse();
        assertThat(s.toString()).contains("kubeconfigs=none (dir " + empty + ")");
    }

    @Test
    void templateTagsAndCloneModeAreCheckedAndLinkedClonesTakeNoCloneStorage() {
        ProxmoxSettings s = parse(Map.of("template-tags", " BigFleet-Template , k8s ", "clone-mode", "linked"));
        assertThat(s.templateTags()).containsExactly("bigfleet-template", "k8s");
        assertThat(s.cloneMode()).isEqualTo(CloneMode.LINKED);
        refused(Map.of("template-tags", "ok,+bad"), "--template-tags: \"+bad\" is not a Proxmox tag");
        refused(Map.of("clone-mode", "thin"), "--clone-mode: \"thin\" must be full or linked");
        refused(
                Map.of("clone-mode", "linked", "clone-storage", "ceph-vm"),
                "--clone-mode: linked clones stay on their template's storage; Proxmox refuses --clone-storage"
                        + " for them");
    }

    @Test
    void theWebUiDefaultsToTheApiHostAndLinksEachVmToItsSummary() {
        assertThat(parse(Map.of()).webUi().vmPage(101).toString())
                .isEqualTo("https://pve1:8006/#v1:0:=qemu%2F101:4:::::5::");
        assertThat(parse(Map.of("ui-url", "https://pve.example.org/proxmox"))
                        .webUi()
                        .vmPage(7)
                        .toString())
                .isEqualTo("https://pve.example.org/proxmox/#v1:0:=qemu%2F7:4:::::5::");
        assertThat(parse(Map.of()).toString()).contains("ui=https://pve1:8006/");
        refused(Map.of("ui-url", "ftp://pve1/"), "--proxmox-ui-url: \"ftp://pve1/\" must be https://HOST[:PORT]/");
        refused(Map.of("ui-url", "https://root:pw@pve1:8006/"), "--proxmox-ui-url:");
        refused(Map.of("ui-url", "https://pve1:8006/#x"), "--proxmox-ui-url:");
    }

    @Test
    void theApiUrlGetsItsRootPathAndMustBeHttps() {
        assertThat(parse(Map.of("api-url", "https://pve1:8006")).apiRoot().toString())
                .isEqualTo("https://pve1:8006/api2/json");
        assertThat(parse(Map.of("api-url", "https://pve1:8006/api2/json/"))
                        .apiRoot()
                        .toString())
                .isEqualTo("https://pve1:8006/api2/json");
        refused(
                Map.of("api-url", "http://pve1:8006/api2/json"),
                "--proxmox-api-url: http:// would send the API token in clear");
        refused(Map.of("api-url", "pve1:8006"), "--proxmox-api-url:");
        refused(Map.of("api-url", "https://user:pw@pve1:8006"), "--proxmox-api-url:");
    }

    @Test
    void anApiUrlWithAPasswordInItIsRefusedWithoutShowingThePassword() {
        for (String url : List.of(
                "https://root:s3cret-value@pve1:8006/api2/json",
                "root:s3cret-value@pve1:8006",
                "https://root:s3cret/value@pve1:8006",
                "https://root:s3cret value@pve1")) {
            assertThatThrownBy(() -> parse(Map.of("api-url", url)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("--proxmox-api-url: ")
                    .hasMessageNotContaining("s3cret");
        }
        assertThatThrownBy(() -> parse(Map.of("api-url", "https://root:pw@pve1:8006")))
                .hasMessage("--proxmox-api-url: \"https://<credentials>@pve1:8006\" must not carry credentials, a"
                        + " query or a fragment (the token goes in the token flags)");
        refused(Map.of("api-url", ""), "--proxmox-api-url: required");
    }

    @Test
    void theTokenIdMustBeUserAtRealmBangToken() {
        for (String bad : List.of("bigfleet", "bigfleet@pve", "bigfleet!x", "@pve!x", "a@pve!9x", "a@pve!x y")) {
            refused(Map.of("token-id", bad), "--proxmox-token-id:");
        }
        assertThat(parse(Map.of("token-id", "root@pam!ci-1.x_y")).token().id()).isEqualTo("root@pam!ci-1.x_y");
    }

    @Test
    void aSecretGivenAsTheTokenIdIsNotRepeated() {
        String secret = "5ec7e7aa-70ce-4e11-b1ab-000000000042";
        assertThatThrownBy(() -> parse(Map.of("token-id", secret)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--proxmox-token-id: has neither \"@\" nor \"!\"")
                .hasMessageNotContaining(secret)
                .hasMessageNotContaining(secret.substring(0, 8));
    }

    @Test
    void aSecretPastedIntoTheTokenIdIsNamedWithoutBeingRepeated() {
        String pasted = "bigfleet@pve!autoscaler=5ec7e7aa-70ce-4e11-b1ab-000000000001";
        for (Map<String, String> o : List.of(
                Map.of("token-id", pasted, "token-secret", ""),
                Map.of("token-id", pasted),
                Map.of("token-id", "PVEAPIToken=" + pasted))) {
            assertThatThrownBy(() -> parse(o))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("--proxmox-token-id: the token secret was pasted into the id")
                    .hasMessageContaining("--proxmox-token-file")
                    .hasMessageNotContaining("5ec7e7aa")
                    .hasMessageNotContaining("s3cret-value")
                    .hasMessageNotContaining("autoscaler");
        }
        assertThatThrownBy(() -> parse(Map.of("token-id", pasted, "token-secret", "")))
                .hasMessageNotContaining("which is set too");
        assertThatThrownBy(() -> parse(Map.of("token-id", pasted)))
                .hasMessageEndingWith(", which is set too: drop the \"=\" and what follows it from the id");
        refused(Map.of("token-id", "bigfleet@pve!x 5ec7e7aa"), "--proxmox-token-id: contains whitespace");
    }

    @Test
    void aWholeTokenGivenAsTheSecretIsRefusedWithoutRepeatingIt(@TempDir Path dir) throws Exception {
        String whole = "bigfleet@pve!autoscaler=5ec7e7aa-70ce-4e11-b1ab-000000000001";
        assertThatThrownBy(() -> parse(Map.of("token-secret", whole)))
                .hasMessageStartingWith("--proxmox-token-secret: holds \"=\", so it looks like a whole token")
                .hasMessageNotContaining("5ec7e7aa");
        Path f = dir.resolve("secret");
        Files.writeString(f, whole + "\n");
        assertThatThrownBy(() -> parse(Map.of("token-file", f.toString())))
                .hasMessageStartingWith("--proxmox-token-file " + f + ": holds \"=\"")
                .hasMessageNotContaining("5ec7e7aa");
    }

    @Test
    void theSecretFileWinsAndIsTrimmed(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("secret");
        Files.writeString(f, "  from-file \n");
        assertThat(parse(Map.of("token-file", f.toString())).token().secret().expose())
                .isEqualTo("from-file");
        refused(Map.of("token-file", dir.resolve("missing").toString()), "--proxmox-token-file");
        Files.writeString(f, "\n");
        refused(Map.of("token-file", f.toString()), "--proxmox-token-file " + f + ": the file is empty");
        refused(Map.of("token-secret", ""), "--proxmox-token-file / --proxmox-token-secret: a token secret");
        refused(Map.of("token-secret", "has;semicolon"), "--proxmox-token-secret: the token secret contains");
    }

    @Test
    void tlsNeedsACaOrAPinAndRejectsMalformedOnes(@TempDir Path dir) throws Exception {
        refused(Map.of("tls-fingerprint", ""), "--proxmox-ca-file / --proxmox-tls-fingerprint: TLS verification");
        refused(Map.of("tls-fingerprint", "ab:cd"), "--proxmox-tls-fingerprint: expected a SHA-256 fingerprint");
        refused(Map.of("tls-fingerprint", "zz".repeat(32)), "--proxmox-tls-fingerprint:");
        Path notPem = dir.resolve("ca.pem");
        Files.writeString(notPem, "hello");
        refused(Map.of("ca-file", notPem.toString()), "--proxmox-ca-file: " + notPem + ": no PEM certificate");
        refused(Map.of("ca-file", dir.resolve("none.pem").toString()), "--proxmox-ca-file:");
    }

    @Test
    void backendFlags() {
        ProxmoxSettings s = parse(Map.of(
                "max-concurrent-clones-per-node",
                "5",
                "memory-overcommit",
                "1.5",
                "vmid-range",
                "5000-5999",
                "clone-storage",
                "ceph-vm",
                "agent-timeout",
                "90s",
                "pool",
                "bf",
                "bootstrap-exec",
                " /usr/bin/env , bash ,, ",
                "drain-exec",
                "/bin/sh, /usr/local/lib/bigfleet/drain-hook.sh ,",
                "bootstrap-path",
                "/var/lib/bf/blob"));
        assertThat(s.maxClonesPerNode()).isEqualTo(5);
        assertThat(s.memoryOvercommit()).isEqualTo(1.5);
        assertThat(s.vmidRange()).contains(new VmidRange(5000, 5999));
        assertThat(s.cloneStorage()).contains("ceph-vm");
        assertThat(s.agentTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(s.pool()).contains("bf");
        assertThat(s.bootstrapExec()).containsExactly("/usr/bin/env", "bash");
        assertThat(s.drainExec()).containsExactly("/bin/sh", "/usr/local/lib/bigfleet/drain-hook.sh");
        assertThat(s.bootstrapPath()).isEqualTo("/var/lib/bf/blob");
        refused(Map.of("max-concurrent-clones-per-node", "0"), "--max-concurrent-clones-per-node: must be >= 1");
        refused(Map.of("max-concurrent-clones-per-node", "two"), "--max-concurrent-clones-per-node:");
        refused(Map.of("memory-overcommit", "0"), "--memory-overcommit:");
        refused(Map.of("memory-overcommit", "NaN"), "--memory-overcommit:");
        refused(Map.of("vmid-range", "5999-5000"), "--vmid-range:");
        refused(Map.of("vmid-range", "50-60"), "--vmid-range:");
        refused(Map.of("vmid-range", "5000"), "--vmid-range:");
        refused(Map.of("agent-timeout", "0s"), "--agent-timeout:");
        refused(Map.of("agent-timeout", "soon"), "--agent-timeout:");
        refused(Map.of("bootstrap-path", "relative/path"), "--bootstrap-path:");
    }
}
