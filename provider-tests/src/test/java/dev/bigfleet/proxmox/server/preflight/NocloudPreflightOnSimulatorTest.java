package dev.bigfleet.proxmox.server.preflight;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.pvesim.StorageView;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code preflight --live} with guests whose qemu-guest-agent refuses {@code guest-exec}: a nocloud
 * type's row uploads a test seed, boots the clone and reports that cloud-init read the seed (its
 * result, or the host name it set from the seed) and
 * that the agent refuses exec, which it never needs, and leaves neither the seed nor the VM; an
 * agent type on the same guests fails its bootstrap step saying the type wants {@code nocloud}.
 */
@Tag("recovery")
class NocloudPreflightOnSimulatorTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static TestingProxmoxCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        cluster = TestingProxmoxCluster.builder()
                .roomy()
                .latency(Duration.ofMillis(10))
                .execBlocked()
                .start();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static JsonNode preflight(List<String> args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            PreflightCommand.run("test", o, e, args.toArray(new String[0]));
        }
        return JSON.readTree(out.toString(StandardCharsets.UTF_8));
    }

    private static JsonNode step(JsonNode report, String name) {
        for (JsonNode s : report.get("rows").get(0).get("steps")) {
            if (s.get("name").asText().equals(name)) {
                return s;
            }
        }
        throw new AssertionError("no step " + name + ": " + report);
    }

    private List<String> live(String typeSettings) throws Exception {
        List<String> args = new ArrayList<>(List.of("--live", "--output", "json"));
        args.addAll(PreflightSetup.flags(dir, cluster, "pve.small", TestingProxmoxCluster.TEMPLATE, List.of("pve1")));
        int at = args.indexOf("--instance-types") + 1;
        args.set(
                at,
                Files.writeString(
                                dir.resolve("nocloud-types.json"),
                                "{\"pve.small\": {\"vcpu\": 1, \"memory_mib\": 1024, \"template_vmid\": "
                                        + TestingProxmoxCluster.TEMPLATE + typeSettings + "}}")
                        .toString());
        return args;
    }

    private List<String> seeds() {
        return cluster.simulator().storage("local", "pve1").map(StorageView::volumes).orElse(List.of()).stream()
                .map(StorageView.VolumeView::volid)
                .filter(v -> v.contains(":iso/bigfleet-seed-"))
                .toList();
    }

    @Test
    void aNocloudTypeBootsATestSeedThatTheGuestReadsAndLeavesNothingBehind() throws Exception {
        JsonNode report = preflight(live(", \"bootstrap\": \"nocloud\", \"seed_storage\": \"local\""));

        assertThat(report.get("ok").asBoolean()).as(report.toString()).isTrue();
        assertThat(step(report, "seed").get("detail").asText()).contains("uploaded and attached");
        // cloud-init sets the host name early and writes its result last: either proves the seed was read
        assertThat(step(report, "guest").get("detail").asText())
                .containsAnyOf("cloud-init read the seed", "the guest took the seed's host name bigfleet-")
                .contains("refuses guest-exec");
        assertThat(step(report, "destroy").get("outcome").asText()).isEqualTo("pass");
        assertThat(seeds()).isEmpty();
        assertThat(cluster.clones()).isEmpty();
    }

    @Test
    void anAgentTypeOnAGuestThatRefusesExecIsToldToUseNocloud() throws Exception {
        JsonNode report = preflight(live(""));

        assertThat(report.get("ok").asBoolean()).isFalse();
        assertThat(step(report, "bootstrap").get("detail").asText())
                .contains("guest-exec has been disabled")
                .contains("\"bootstrap\": \"nocloud\"");
        assertThat(cluster.clones()).isEmpty();
    }
}
