package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.pvesim.PveSimulator;
import dev.bigfleet.proxmox.pvesim.StorageSpec;
import dev.bigfleet.proxmox.pvesim.TemplateSpec;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
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
 *
 * <p>The whole suite runs on two layouts (shared storage; local storage with templates by tags,
 * linked). The other three differ from those only in how a clone is made (the template chosen by a
 * map, a full copy), which only the behaviours that make and remove VMs reach: they run the
 * lifecycle and concurrency behaviours, unless {@code -Dconformance.everyLayout=true} asks for the
 * whole suite on every layout.
 */
@Tag("conformance")
class ProxmoxConformanceTest {
    /** Storages big enough that admission never refuses the suite's hundreds of Creates. */
    private static final long STORAGE_GIB = 1L << 24;

    private static final List<String> THREE = List.of("pve1", "pve2", "pve3");

    /** Every behaviour class of the core and cloud profiles. */
    private static final String ALL = ".*";
    /**
     * The behaviours that make and remove VMs: every transition, and Creates racing each other (all
     * of them with {@code -Dconformance.everyLayout=true}).
     */
    private static final String CLONES =
            Boolean.getBoolean("conformance.everyLayout") ? ALL : "LifecycleTest|ConcurrencyTest";

    /** A layout: its nodes and storages, and the provider flags that pick templates and clone mode. */
    record Layout(
            String name,
            List<String> nodes,
            Supplier<TestingProxmoxCluster.Builder> cluster,
            Function<Path, List<String>> flags,
            String behaviours) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> layouts() {
        return Stream.of(
                Arguments.of(new Layout(
                        "shared storage, one template",
                        List.of("pve1", "pve2"),
                        ProxmoxConformanceTest::shared,
                        dir -> List.of(),
                        ALL)),
                Arguments.of(new Layout(
                        "local storage, templates by tags, full clones",
                        THREE,
                        ProxmoxConformanceTest::local,
                        dir -> local(dir, List.of("--template-tags", "bigfleet-template")),
                        CLONES)),
                Arguments.of(new Layout(
                        "local storage, templates by tags, linked clones",
                        THREE,
                        ProxmoxConformanceTest::local,
                        dir -> local(dir, List.of("--template-tags", "bigfleet-template", "--clone-mode", "linked")),
                        ALL)),
                Arguments.of(new Layout(
                        "local storage, templates by map, full clones",
                        THREE,
                        ProxmoxConformanceTest::local,
                        dir -> local(dir, mapped(dir, "full")),
                        CLONES)),
                Arguments.of(new Layout(
                        "local storage, templates by map, linked clones",
                        THREE,
                        ProxmoxConformanceTest::local,
                        dir -> local(dir, mapped(dir, "linked")),
                        CLONES)));
    }

    /** Two nodes and the default template 9000, on shared Ceph RBD storage. */
    private static TestingProxmoxCluster.Builder shared() {
        return TestingProxmoxCluster.builder()
                .nodes("pve1", "pve2")
                .roomy()
                .storage(StorageSpec.local())
                .storage(StorageSpec.localLvm())
                .storage(StorageSpec.cephRbd().withCapacityGib(STORAGE_GIB));
    }

    /** Three nodes on node-local LVM-thin, each with a template of its own tagged for the provider. */
    private static TestingProxmoxCluster.Builder local() {
        TestingProxmoxCluster.Builder b = TestingProxmoxCluster.builder()
                .nodes(THREE.toArray(String[]::new))
                .roomy()
                .storage(StorageSpec.local())
                .storage(StorageSpec.localLvm().withCapacityGib(STORAGE_GIB));
        for (int i = 0; i < 3; i++) {
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
    @Execution(ExecutionMode.CONCURRENT) // each layout has a cluster, a provider and a suite of its own
    void coreAndCloudBehavioursPassOnTheRealBackend(Layout layout, @TempDir Path dir) throws Exception {
        try (TestingProxmoxCluster cluster = layout.cluster().get().start();
                TestingProvider provider = TestingProvider.builder()
                        .proxmox(cluster)
                        .seedCount(2000)
                        .flags("--reconcile-interval", "1s", "--agent-timeout", "1m")
                        // the suite's blob is an opaque secret, not a script: the guest's hook checks it arrived
                        .flags("--bootstrap-exec", "/usr/bin/test,-s")
                        .flags(layout.flags().apply(dir))
                        .build()) {
            PveSimulator sim = cluster.simulator();
            String slug = layout.name().replaceAll("[^a-z]+", "-");
            Path report =
                    Path.of("target", "proxmox-conformance-" + slug + ".txt").toAbsolutePath();
            Files.createDirectories(report.getParent());
            int exit = CoreConformanceRunner.runInOwnJvm(provider.target(), report, layout.behaviours());
            List<String> lines = Files.readAllLines(report, StandardCharsets.UTF_8);
            String summary = lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
            List<String> failures =
                    lines.stream().filter(l -> l.startsWith("FAILED ")).toList();
            assertThat(failures)
                    .as("conformance failures on the real backend, %s (full report: %s)", layout, report)
                    .isEmpty();
            assertThat(exit).as("suite exit code; last line: %s", summary).isZero();
            assertThat(summary).matches("[1-9]\\d* passed, 0 failed, \\d+ skipped");
            assertThat(cluster.clones())
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

    /** {@code /api/v1/nodes} over HTTP: each node with its clone storage's use beside its memory. */
    private static void nodesShowStorageNextToMemory(TestingProvider provider, Layout layout) throws Exception {
        HttpResponse<String> r = provider.get("/api/v1/nodes");
        JsonNode nodes = new ObjectMapper().readTree(r.body()).get("nodes");
        assertThat(nodes).hasSize(layout.nodes().size());
        for (JsonNode n : nodes) {
            assertThat(n.get("memory_total_bytes").asLong()).isEqualTo(TestingProxmoxCluster.ROOMY_MEMORY);
            assertThat(n.get("storage_total_bytes").asLong())
                    .as("node %s's clone storage", n.get("name").asText())
                    .isEqualTo(STORAGE_GIB << 30);
            assertThat(n.get("storage_used_bytes").asLong()).isPositive();
        }
    }
}
