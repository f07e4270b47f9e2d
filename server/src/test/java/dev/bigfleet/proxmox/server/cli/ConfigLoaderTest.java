package dev.bigfleet.proxmox.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.server.config.ListenAddress;
import dev.bigfleet.proxmox.server.config.UnnamedClients;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    static ProviderConfigs load(String... args) throws ConfigException, UsageException {
        return ConfigLoader.load(ProviderCommandLine.parse("test", args));
    }

    private Path file(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    @Test
    void defaultsMatchTheReferenceProvider() throws Exception {
        ProviderConfigs c = load("--use-fake-backend");
        assertThat(c.grpc().address()).isEqualTo(new ListenAddress("", 9000));
        assertThat(c.http().address()).contains(new ListenAddress("", 9090));
        assertThat(c.inventory().plan().providerLabel()).isEqualTo("proxmox");
        assertThat(c.backend().name()).isEqualTo("fake");
        assertThat(c.inventory().plan().offerings())
                .extracting(Offering::instanceType, Offering::zone, Offering::count)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("pve.large", "pve-a", 8),
                        org.assertj.core.groups.Tuple.tuple("pve.xlarge", "pve-a", 8),
                        org.assertj.core.groups.Tuple.tuple("pve.large", "pve-b", 8),
                        org.assertj.core.groups.Tuple.tuple("pve.xlarge", "pve-b", 8));
        assertThat(c.timeouts().of(TransitionKind.CREATE)).isEqualTo(Duration.ofMinutes(8));
        assertThat(c.timeouts().of(TransitionKind.DRAIN)).isEqualTo(Duration.ofMinutes(15));
        assertThat(c.timeouts().of(TransitionKind.DELETE)).isEqualTo(Duration.ofMinutes(8));
        assertThat(c.runtime().reconcileInterval()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.grpc().reflection()).isTrue();
        assertThat(c.grpc().security()).isEqualTo("insecure");
        assertThat(c.grpc().mutualTls()).isFalse();
        assertThat(c.grpc().unnamedClients()).isEqualTo(UnnamedClients.READ);
    }

    @Test
    void timeoutFlagsComposeKindFlagsWinOverTheCommonOne() throws Exception {
        ProviderConfigs c = load("--use-fake-backend", "--transition-timeout=90s", "--drain-timeout", "1h30m");
        assertThat(c.timeouts().of(TransitionKind.CREATE)).isEqualTo(Duration.ofSeconds(90));
        assertThat(c.timeouts().of(TransitionKind.CONFIGURE)).isEqualTo(Duration.ofSeconds(90));
        assertThat(c.timeouts().of(TransitionKind.DRAIN)).isEqualTo(Duration.ofMinutes(90));
    }

    @Test
    void aSingleNodeWithDefaultOfferingsGivesUniqueSlots() throws Exception {
        ProviderConfigs c = load("--use-fake-backend", "--nodes", "pve1");
        assertThat(c.inventory().plan().offerings()).extracting(Offering::zone).containsOnly("pve1");
        assertThat(c.inventory().plan().offerings()).extracting(Offering::count).containsExactly(16, 16);
    }

    @Test
    void faultModeAddsAnOfferingWhoseCreatesFail() throws Exception {
        ProviderConfigs c = load("--use-fake-backend", "--fake-faults");
        Offering faulty = c.inventory()
                .plan()
                .offerings()
                .get(c.inventory().plan().offerings().size() - 1);
        assertThat(faulty.labels()).containsEntry("conformance.fault/create", "error");
        assertThat(faulty.count()).isEqualTo(8);
        assertThat(load("--use-fake-backend").inventory().plan().offerings())
                .noneMatch(o -> !o.labels().isEmpty());
    }

    @Test
    void offeringsAndCatalogFilesAreRead() throws Exception {
        Path catalog = file("types.json", "{\"tiny\": {\"vcpu\": 1, \"memory_mib\": 1536}}");
        Path offerings = file(
                "offerings.json",
                "[{\"instance_type\": \"tiny\", \"zone\": \"n1\", \"count\": 3,"
                        + " \"capacity_type\": \"on-demand\", \"labels\": {\"team\": \"a\"}}]");
        ProviderConfigs c = load(
                "--use-fake-backend",
                "--instance-types",
                catalog.toString(),
                "--offerings",
                offerings.toString(),
                "--prices",
                "tiny=0.5");
        assertThat(c.inventory().plan().catalog().find("tiny").orElseThrow().allocatable())
                .containsEntry("memory", "1536Mi");
        assertThat(c.inventory().plan().offerings()).singleElement().satisfies(o -> {
            assertThat(o.count()).isEqualTo(3);
            assertThat(o.labels()).containsEntry("team", "a");
        });
        assertThat(c.inventory()
                        .plan()
                        .prices()
                        .priceOf("tiny", c.inventory().plan().catalog()))
                .isEqualTo(0.5);
    }

    static Stream<Arguments> badCommandLines() {
        return Stream.of(
                Arguments.of(List.of(), "--proxmox-backend auto: no backend recognises these settings; "),
                Arguments.of(List.of("--proxmox-backend", "nope"), "unknown backend \"nope\" (found: fake, proxmox)"),
                Arguments.of(List.of("--use-fake-backend", "--nodes", "a,a"), "--nodes: node \"a\" is listed twice"),
                Arguments.of(List.of("--use-fake-backend", "--nodes", "a/b"), "--nodes: node \"a/b\""),
                Arguments.of(List.of("--use-fake-backend", "--nodes", ","), "--nodes"),
                Arguments.of(
                        List.of("--use-fake-backend", "--prices", "pve.small=NaN"), "--prices: price of \"pve.small\""),
                Arguments.of(List.of("--use-fake-backend", "--prices", "pve.small=Inf"), "--prices"),
                Arguments.of(List.of("--use-fake-backend", "--prices", "pve.small=-1"), "--prices"),
                Arguments.of(List.of("--use-fake-backend", "--prices", "pve.small"), "--prices"),
                Arguments.of(List.of("--use-fake-backend", "--price-per-vcpu-hour", "-0.1"), "--price-per-vcpu-hour"),
                Arguments.of(List.of("--use-fake-backend", "--price-per-gib-hour", "Infinity"), "--price-per-gib-hour"),
                Arguments.of(List.of("--use-fake-backend", "--create-timeout", "5"), "--create-timeout"),
                Arguments.of(
                        List.of("--use-fake-backend", "--transition-timeout", "0s"),
                        "--transition-timeout: must be > 0"),
                Arguments.of(List.of("--use-fake-backend", "--reconcile-interval", "soon"), "--reconcile-interval"),
                Arguments.of(List.of("--use-fake-backend", "--seed-count", "0"), "--seed-count: must be > 0"),
                Arguments.of(List.of("--use-fake-backend", "--template-vmid", "-5"), "--template-vmid: must be > 0"),
                Arguments.of(List.of("--use-fake-backend", "--addr", "9000"), "--addr"),
                Arguments.of(List.of("--use-fake-backend", "--metrics-addr", "x:99999"), "--metrics-addr"),
                Arguments.of(
                        List.of("--use-fake-backend", "--tls-cert", "c.pem"),
                        "--tls-cert and --tls-key: both are required"),
                Arguments.of(
                        List.of("--use-fake-backend", "--tls-key", "k.pem"),
                        "--tls-cert and --tls-key: both are required"),
                Arguments.of(
                        List.of("--use-fake-backend", "--tls-ca", "ca.pem"),
                        "--tls-ca: set without --tls-cert/--tls-key"),
                Arguments.of(
                        List.of("--use-fake-backend", "--tls-unnamed-clients", "mutate"),
                        "--tls-unnamed-clients=mutate: set without --tls-ca"),
                Arguments.of(
                        List.of("--use-fake-backend", "--tls-unnamed-clients", "everything"), "--tls-unnamed-clients"),
                Arguments.of(
                        List.of("--use-fake-backend", "--tls-cert", "/nonexistent/c", "--tls-key", "/nonexistent/k"),
                        "--tls-cert /nonexistent/c: not a readable file"),
                Arguments.of(
                        List.of("--use-fake-backend", "--metrics-tls-cert", "c.pem"),
                        "--metrics-tls-cert and --metrics-tls-key: both are required"),
                Arguments.of(
                        List.of("--use-fake-backend", "--metrics-tls-key", "k.pem"),
                        "--metrics-tls-cert and --metrics-tls-key: both are required"),
                Arguments.of(
                        List.of("--use-fake-backend", "--metrics-tls-ca", "ca.pem"),
                        "--metrics-tls-ca: set without --metrics-tls-cert/--metrics-tls-key"),
                Arguments.of(
                        List.of(
                                "--use-fake-backend",
                                "--metrics-tls-cert",
                                "/nonexistent/c",
                                "--metrics-tls-key",
                                "/nonexistent/k"),
                        "--metrics-tls-cert /nonexistent/c: not a readable file"),
                Arguments.of(
                        List.of("--use-fake-backend", "--metrics-tls-cert", "/", "--metrics-tls-key", "/"),
                        "--metrics-tls-cert /: not a readable file"),
                Arguments.of(
                        List.of("--use-fake-backend", "--metrics-addr", "", "--metrics-tls-ca", "/nonexistent/ca"),
                        "--metrics-tls-ca: set while --metrics-addr is empty"),
                Arguments.of(
                        List.of("--use-fake-backend", "--plugin-dir", "/nonexistent"),
                        "--plugin-dir /nonexistent: not a directory"),
                Arguments.of(List.of("--use-fake-backend", "--provider", " "), "--provider"),
                Arguments.of(
                        List.of("--use-fake-backend", "--instance-types", "/nonexistent.json"),
                        "--instance-types /nonexistent.json: no such file"),
                Arguments.of(
                        List.of("--use-fake-backend", "--offerings", "/nonexistent.json"),
                        "--offerings /nonexistent.json: no such file"));
    }

    @ParameterizedTest
    @MethodSource("badCommandLines")
    void eachMistakeStopsStartupWithOneLineNamingIt(List<String> args, String expected) {
        assertThatThrownBy(() -> load(args.toArray(String[]::new)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    static Stream<Arguments> badFiles() {
        return Stream.of(
                Arguments.of("[]", "{\"a\":{\"vcpu\":1,\"memory_mib\":1}}", "lists no offerings"),
                Arguments.of(
                        "[{\"instance_type\":\"a\",\"zone\":\"z\",\"count\":\"3\"}]",
                        "{\"a\":{\"vcpu\":1,\"memory_mib\":1}}",
                        "offerings.json: $[0].count: must be a whole number, not a string"),
                Arguments.of("{not json", "{\"a\":{\"vcpu\":1,\"memory_mib\":1}}", "invalid JSON"),
                Arguments.of(
                        "[{\"instance_type\":\"a\",\"zone\":\"z\",\"count\":0}]",
                        "{\"a\":{\"vcpu\":1,\"memory_mib\":1}}",
                        "offering #1 (a in z): count must be > 0"),
                Arguments.of(
                        "[{\"instance_type\":\"b\",\"zone\":\"z\",\"count\":1}]",
                        "{\"a\":{\"vcpu\":1,\"memory_mib\":1}}",
                        "offering #1 (b in z): instance_type \"b\" is not in the catalog"),
                Arguments.of(
                        "[{\"instance_type\":\"a\",\"count\":1}]",
                        "{\"a\":{\"vcpu\":1,\"memory_mib\":1}}",
                        "offerings.json: $[0].zone: is required"),
                Arguments.of(
                        "[{\"instance_type\":\"a\",\"zone\":\"z\",\"count\":1,\"capacity_type\":\"spot\"}]",
                        "{\"a\":{\"vcpu\":1,\"memory_mib\":1}}",
                        "offering #1: capacity_type \"spot\" is not offered"),
                Arguments.of(
                        "[{\"instance_type\":\"a\",\"zone\":\"z\",\"count\":1,\"capacity_type\":\"weird\"}]",
                        "{\"a\":{\"vcpu\":1,\"memory_mib\":1}}",
                        "unknown capacity_type"),
                Arguments.of(
                        "[{\"instance_type\":\"a\",\"zone\":\"z\",\"count\":1},{\"instance_type\":\"a\",\"zone\":\"z\",\"count\":2}]",
                        "{\"a\":{\"vcpu\":1,\"memory_mib\":1}}",
                        "offering #2 (a in z): another offering already has this instance_type and zone"),
                Arguments.of(
                        "[{\"instance_type\":\"a\",\"zone\":\"z\",\"count\":1}]",
                        "{}",
                        "the catalog has no instance types"),
                Arguments.of(
                        "[{\"instance_type\":\"a\",\"zone\":\"z\",\"count\":1}]",
                        "{\"a\":{\"vcpu\":0,\"memory_mib\":1}}",
                        "\"a\": vcpu must be > 0"),
                Arguments.of(
                        "[{\"instance_type\":\"a\",\"zone\":\"z\",\"count\":1}]",
                        "{\"a\":{\"vcpu\":1}}",
                        "catalog.json: $.a.memory_mib: is required"),
                Arguments.of(
                        "[{\"instance_type\":\"a\",\"zone\":\"z\",\"count\":1}]",
                        "{\"a\":{\"vcpu\":1,\"memory_mib\":0}}",
                        "\"a\": memory_mib must be > 0"));
    }

    @ParameterizedTest
    @MethodSource("badFiles")
    void badOfferingsOrCatalogFilesNameTheEntry(String offerings, String catalog, String expected) throws Exception {
        Path o = file("offerings.json", offerings);
        Path c = file("catalog.json", catalog);
        assertThatThrownBy(
                        () -> load("--use-fake-backend", "--offerings", o.toString(), "--instance-types", c.toString()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
