package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.pvesim.NodeSpec;
import dev.bigfleet.proxmox.pvesim.PveSimulator;
import dev.bigfleet.proxmox.pvesim.SimulatorConfig;
import dev.bigfleet.proxmox.pvesim.StorageSpec;
import dev.bigfleet.proxmox.pvesim.TemplateSpec;
import dev.bigfleet.proxmox.server.ProviderMain;
import dev.bigfleet.proxmox.server.RunningProvider;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The conformance suite's core and cloud behaviours against the full provider {@code main} on the
 * real Proxmox backend ({@code --proxmox-backend proxmox}), which drives the Proxmox API simulator
 * over HTTPS with a verified CA and an API token from a file, on each storage layout of the
 * README: one template on shared storage, and three nodes on node-local LVM-thin with a template
 * each, chosen by tags or by a per-node map, cloned full or linked. The provider runs in this JVM
 * on ephemeral ports; the suite runs in a child JVM (see {@link CoreConformanceRunner}).
 */
class ProxmoxConformanceTest {
    private static final String TOKEN_ID = "bigfleet@pve!conformance";
    private static final String SECRET = "c0nf0rm4-5ec7-4e11-b1ab-000000000001";
    /** Nodes and storages big enough that admission never refuses the suite's hundreds of Creates. */
    private static final long NODE_MEMORY = 1L << 50;

    private static final long STORAGE_GIB = 1L << 24;
    private static final List<String> THREE = List.of("pve1", "pve2", "pve3");

    /** A layout: its nodes and storages, and the provider flags that pick templates and clone mode. */
    record Layout(String name, List<String> nodes, SimulatorConfig.Builder sim, Function<Path, List<String>> flags) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> layouts() {
        return Stream.of(
                Arguments.of(new Layout(
                        "shared storage, one template", List.of("pve1", "pve2"), shared(), dir -> List.of())),
                Arguments.of(new Layout(
                        "local storage, templates by tags, full clones",
                        THREE,
                        local(),
                        dir -> local(dir, List.of("--template-tags", "bigfleet-template")))),
                Arguments.of(new Layout(
                        "local storage, templates by tags, linked clones",
                        THREE,
                        local(),
                        dir -> local(dir, List.of("--template-tags", "bigfleet-template", "--clone-mode", "linked")))),
                Arguments.of(new Layout(
                        "local storage, templates by map, full clones",
                        THREE,
                        local(),
                        dir -> local(dir, mapped(dir, "full")))),
                Arguments.of(new Layout(
                        "local storage, templates by map, linked clones",
                        THREE,
                        local(),
                        dir -> local(dir, mapped(dir, "linked")))));
    }

    private static SimulatorConfig.Builder shared() {
        SimulatorConfig.Builder b = SimulatorConfig.builder()
                .storage(StorageSpec.local())
                .storage(StorageSpec.localLvm())
                .storage(StorageSpec.cephRbd().withCapacityGib(STORAGE_GIB))
                .templateVmid(9000);
        for (String n : List.of("pve1", "pve2")) {
            b.node(NodeSpec.of(n).withCapacity(1024, NODE_MEMORY));
        }
        return b;
    }

    private static SimulatorConfig.Builder local() {
        SimulatorConfig.Builder b = SimulatorConfig.builder()
                .storage(StorageSpec.local())
                .storage(StorageSpec.localLvm().withCapacityGib(STORAGE_GIB));
        for (int i = 0; i < 3; i++) {
            b.node(NodeSpec.of(THREE.get(i)).withCapacity(1024, NODE_MEMORY));
            b.template(TemplateSpec.of(9001 + i, THREE.get(i))
                    .withStorage("local-lvm")
                    .withTags("bigfleet-template;k8s"));
        }
        return b;
    }

    /** Offerings of two types on all three nodes, with the given template flags. */
    private static List<String> local(Path dir, List<String> templateFlags) {
        StringBuilder json = new StringBuilder("[");
        for (String type : List.of("pve.small", "pve.large")) {
            for (String node : THREE) {
                json.append(json.length() > 1 ? "," : "")
                        .append("{\"instance_type\":\"")
                        .append(type)
                        .append("\",\"zone\":\"")
                        .append(node)
                        .append("\",\"count\":340,\"resources\":{\"cpu\":\"1\",\"memory\":\"2Gi\"}}");
            }
        }
        List<String> flags = new ArrayList<>(List.of("--offerings", write(dir, "offerings.json", json + "]")));
        flags.addAll(templateFlags);
        return flags;
    }

    /** An instance-type catalog naming each node's template, cloned {@code mode}. */
    private static List<String> mapped(Path dir, String mode) {
        String templates = "{\"pve1\": 9001, \"pve2\": 9002, \"pve3\": 9003}";
        String catalog = "{\"pve.small\": {\"vcpu\": 2, \"memory_mib\": 4096, \"templates\": " + templates
                + ", \"clone_mode\": \"" + mode + "\"},"
                + " \"pve.large\": {\"vcpu\": 8, \"memory_mib\": 16384, \"templates\": " + templates
                + ", \"clone_mode\": \"" + mode + "\", \"disk_gib\": 40}}";
        return List.of("--instance-types", write(dir, "types.json", catalog));
    }

    private static String write(Path dir, String name, String text) {
        try {
            Path p = dir.resolve(name);
            Files.writeString(p, text, StandardCharsets.UTF_8);
            return p.toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void coreAndCloudBehavioursPassOnTheRealBackend(Layout layout, @TempDir Path dir) throws Exception {
        Path secret = dir.resolve("token");
        Files.writeString(secret, SECRET + "\n", StandardCharsets.UTF_8);
        SimulatorConfig config =
                layout.sim().token(TOKEN_ID + "=" + SECRET).tlsDir(dir).build();
        try (PveSimulator sim = PveSimulator.start(config)) {
            List<String> args = new ArrayList<>(List.of(
                    "--addr",
                    "127.0.0.1:0",
                    "--metrics-addr",
                    "127.0.0.1:0",
                    "--proxmox-backend",
                    "proxmox",
                    "--proxmox-api-url",
                    sim.apiUrl().toString(),
                    "--proxmox-token-id",
                    TOKEN_ID,
                    "--proxmox-token-file",
                    secret.toString(),
                    "--proxmox-ca-file",
                    sim.caCertificate().toString(),
                    "--nodes",
                    String.join(",", layout.nodes()),
                    "--seed-count",
                    "2000",
                    "--reconcile-interval",
                    "1s",
                    "--agent-timeout",
                    "1m",
                    // the suite's blob is an opaque secret, not a script: the guest's hook checks it arrived
                    "--bootstrap-exec",
                    "/usr/bin/test,-s"));
            args.addAll(layout.flags().apply(dir));
            try (RunningProvider provider = ProviderMain.start(args.toArray(new String[0]))) {
                String slug = layout.name().replaceAll("[^a-z]+", "-");
                Path report = Path.of("target", "proxmox-conformance-" + slug + ".txt")
                        .toAbsolutePath();
                Files.createDirectories(report.getParent());
                int exit = CoreConformanceRunner.runInOwnJvm("127.0.0.1:" + provider.grpcPort(), report);
                List<String> lines = Files.readAllLines(report, StandardCharsets.UTF_8);
                String summary = lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
                List<String> failures =
                        lines.stream().filter(l -> l.startsWith("FAILED ")).toList();
                assertThat(failures)
                        .as("conformance failures on the real backend, %s (full report: %s)", layout, report)
                        .isEmpty();
                assertThat(exit).as("suite exit code; last line: %s", summary).isZero();
                assertThat(summary).matches("[1-9]\\d* passed, 0 failed, \\d+ skipped");
                assertThat(sim.vms().stream().filter(v -> !v.template()))
                        .as("VMs the suite made through the backend")
                        .isNotEmpty();
                assertThat(sim.tasks().stream().filter(t -> t.type().equals("qmclone")))
                        .as("every clone ran on a template's own node")
                        .allSatisfy(t -> assertThat(sim.vm(Integer.parseInt(t.id()))
                                        .orElseThrow()
                                        .node())
                                .isEqualTo(t.node()));
                nodesShowStorageNextToMemory(provider, layout);
            }
        }
    }

    /** {@code /api/v1/nodes} over HTTP: each node with its clone storage's use beside its memory. */
    private static void nodesShowStorageNextToMemory(RunningProvider provider, Layout layout) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                        + provider.httpPort().orElseThrow() + "/api/v1/nodes"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        JsonNode nodes = new ObjectMapper().readTree(r.body()).get("nodes");
        assertThat(nodes).hasSize(layout.nodes().size());
        for (JsonNode n : nodes) {
            assertThat(n.get("memory_total_bytes").asLong()).isEqualTo(NODE_MEMORY);
            assertThat(n.get("storage_total_bytes").asLong())
                    .as("node %s's clone storage", n.get("name").asText())
                    .isEqualTo(STORAGE_GIB << 30);
            assertThat(n.get("storage_used_bytes").asLong()).isPositive();
        }
    }
}
