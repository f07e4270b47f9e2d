package dev.bigfleet.proxmox.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Startup checks each JSON file against its schema (the selected backend's, for instance types and
 * backend options) before its own checks: the documentation's examples pass, a wrong type, a missing required
 * key and an unknown key each stop startup with one line naming the flag, the file and the key's JSON
 * path, and no line quotes a value.
 */
class SchemaCheckedFilesTest {
    private static final String SECRET = "5f0c8e4e-7d1b-4c55-9a43-secretsecret";
    private static final List<String> PROXMOX = List.of(
            "--proxmox-backend",
            "proxmox",
            "--proxmox-api-url",
            "https://127.0.0.1:9/api2/json",
            "--proxmox-token-id",
            "bigfleet@pve!autoscaler",
            "--proxmox-tls-fingerprint",
            "ab".repeat(32));

    @TempDir
    Path dir;

    private Path file(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    private static ProviderConfigs load(List<String> args) throws ConfigException, UsageException {
        return ConfigLoader.load(ProviderCommandLine.parse("test", args.toArray(String[]::new)));
    }

    /** The real backend with a token secret on the command line (its own check wants one). */
    private static List<String> proxmox(String... more) {
        List<String> args = new ArrayList<>(PROXMOX);
        args.addAll(List.of("--proxmox-token-secret", "test-secret"));
        args.addAll(List.of(more));
        return args;
    }

    /** The real backend, its token secret left to the backend-config file. */
    private static List<String> proxmoxSecretInFile(String... more) {
        List<String> args = new ArrayList<>(PROXMOX);
        args.addAll(List.of(more));
        return args;
    }

    @Test
    void theDocumentationsExamplesStartTheProvider() throws Exception {
        Path catalog = file(
                "types.json",
                "{\"$schema\": \"../docs/reference/schemas/instance-types.proxmox.schema.json\","
                        + " \"pve.small\": {\"vcpu\": 2, \"memory_mib\": 4096, \"template_vmid\": 9000},"
                        + " \"pve.tagged\": {\"vcpu\": 2, \"memory_mib\": 4096, \"template_tags\": [\"bigfleet-template\","
                        + " \"ubuntu-24\"]},"
                        + " \"pve.gpu\": {\"vcpu\": 8, \"memory_mib\": 65536, \"allocatable\": {\"nvidia.com/gpu\": \"1\"},"
                        + " \"pci\": [{\"mapping\": \"gpu-a100\", \"pcie\": true}]}}");
        Path offerings = file(
                "offerings.json",
                "[{\"instance_type\": \"pve.small\", \"zone\": \"pve1\", \"capacity_type\": \"on_demand\", \"count\": 8,"
                        + " \"resources\": {\"cpu\": \"1\", \"memory\": \"2Gi\"}, \"labels\": {\"team\": \"batch\"}}]");
        Path config = file(
                "backend.json",
                "{\"$schema\": \"../docs/reference/schemas/backend-config.proxmox.schema.json\", \"token-secret\": \""
                        + SECRET + "\", \"max-concurrent-clones-per-node\": 3}");
        ProviderConfigs c = load(proxmoxSecretInFile(
                "--instance-types",
                catalog.toString(),
                "--offerings",
                offerings.toString(),
                "--backend-config",
                config.toString()));
        assertThat(c.inventory().plan().catalog().asMap()).containsOnlyKeys("pve.small", "pve.tagged", "pve.gpu");
        InstanceType gpu = c.inventory().plan().catalog().find("pve.gpu").orElseThrow();
        assertThat(gpu.settings()).containsKey("pci");
        assertThat(c.backend().options().get("max-concurrent-clones-per-node")).contains("3");
        assertThat(c.backend().options().get("$schema")).isEmpty();
    }

    @Test
    void aWrongTypeNamesTheFlagTheFileAndTheKeysPath() throws Exception {
        Path catalog = file("types.json", "{\"pve.small\": {\"vcpu\": \"2\", \"memory_mib\": 4096}}");
        assertOneLine(
                List.of("--use-fake-backend", "--instance-types", catalog.toString()),
                "--instance-types " + catalog + ": $[\"pve.small\"].vcpu: must be a whole number, not a string");
        Path nested = file("gpu.json", "{\"g\": {\"vcpu\": 2, \"memory_mib\": 4096, \"pci\": [{\"mapping\": 7}]}}");
        assertOneLine(
                proxmox("--instance-types", nested.toString()),
                "--instance-types " + nested + ": $.g.pci[0].mapping: must be a string, not a whole number");
    }

    @Test
    void aMissingRequiredKeyIsNamedByItsPath() throws Exception {
        Path offerings = file("offerings.json", "[{\"zone\": \"pve1\", \"count\": 1}]");
        assertOneLine(
                List.of("--use-fake-backend", "--offerings", offerings.toString()),
                "--offerings " + offerings + ": $[0].instance_type: is required");
    }

    @Test
    void anUnknownKeyIsNamedWithTheNearestKnownOne() throws Exception {
        // the proxmox backend's keys are unknown to the fake backend's schema
        Path catalog = file("types.json", "{\"t\": {\"vcpu\": 2, \"memory_mib\": 4096, \"clone_mode\": \"linked\"}}");
        assertOneLine(
                List.of("--use-fake-backend", "--instance-types", catalog.toString()),
                "--instance-types " + catalog + ": $.t.clone_mode: unknown key \"clone_mode\"");
        Path typo = file("typo.json", "{\"t\": {\"vcpu\": 2, \"memory_mib\": 4096, \"clone_mod\": \"linked\"}}");
        assertOneLine(
                proxmox("--instance-types", typo.toString()),
                "--instance-types " + typo + ": $.t.clone_mod: unknown key \"clone_mod\" (did you mean"
                        + " \"clone_mode\"?)");
        Path config = file("backend.json", "{\"latncy\": \"0s\"}");
        assertOneLine(
                List.of("--use-fake-backend", "--backend-config", config.toString()),
                "--backend-config " + config + ": $.latncy: backend fake has no option \"latncy\" (did you mean"
                        + " \"latency\"?); its options: use, latency, faults");
    }

    @Test
    void aBackendsOwnRangeIsCheckedByItsSchema() throws Exception {
        Path catalog = file("types.json", "{\"t\": {\"vcpu\": 2, \"memory_mib\": 4096, \"vlan\": 5000}}");
        assertOneLine(
                proxmox("--instance-types", catalog.toString()),
                "--instance-types " + catalog + ": $.t.vlan: must be <= 4094");
        Path mode = file("mode.json", "{\"t\": {\"vcpu\": 2, \"memory_mib\": 4096, \"clone_mode\": \"thin\"}}");
        assertOneLine(
                proxmox("--instance-types", mode.toString()),
                "--instance-types " + mode + ": $.t.clone_mode: must be one of \"full\", \"linked\"");
    }

    @Test
    void aViolationNeverQuotesTheSecretsValue() throws Exception {
        Path config = file("backend.json", "{\"token-secret\": [\"" + SECRET + "\"]}");
        assertThatThrownBy(() -> load(proxmoxSecretInFile("--backend-config", config.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("$[\"token-secret\"]")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET));
        Path typed = file("typed.json", "{\"token-secret\": 12345678987654321}");
        assertThatThrownBy(() -> load(proxmoxSecretInFile("--backend-config", typed.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessage(
                        "--backend-config " + typed + ": $[\"token-secret\"]: must be a string, not a whole number");
    }

    private static void assertOneLine(List<String> args, String expected) {
        assertThatThrownBy(() -> load(args))
                .isInstanceOf(ConfigException.class)
                .hasMessage(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
