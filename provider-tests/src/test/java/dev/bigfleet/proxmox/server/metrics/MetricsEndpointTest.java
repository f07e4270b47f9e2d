package dev.bigfleet.proxmox.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.server.ExternalTools;
import dev.bigfleet.proxmox.testing.TestingProvider;
import io.grpc.StatusRuntimeException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code /metrics} over real HTTP: valid for promtool, and the series move with a machine's lifecycle. */
class MetricsEndpointTest {
    private static final String A = "proxmox/OnDemand/pve.large/pve-a/000";
    private static final String B = "proxmox/OnDemand/pve.large/pve-a/001";
    private static TestingProvider live;

    @BeforeAll
    static void start() throws Exception {
        live = TestingProvider.builder()
                .flags("--seed-count", "16", "--fake-latency", "10ms", "--fake-faults", "--reconcile-interval", "200ms")
                .build();
    }

    @AfterAll
    static void stop() throws Exception {
        live.close();
    }

    private static Scrape scrape() throws Exception {
        HttpResponse<String> r = live.get("/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        return new Scrape(r.body());
    }

    @Test
    void seriesMoveWhenAMachineGoesThroughItsLifecycle() throws Exception {
        Scrape before = scrape();
        assertThat(before.value(
                        "bigfleet_proxmox_machines{instance_type=\"pve.large\",state=\"SPECULATIVE\",zone=\"pve-a\"}"))
                .isEqualTo(4.0);

        live.client().fullLifecycle(A, "blob".getBytes(StandardCharsets.UTF_8));
        live.grpc()
                .create(CreateRequest.newBuilder()
                        .setMachineId(B)
                        .setShardId("s1")
                        .setShardEpoch(1)
                        .setSequenceNumber(5)
                        .build());
        assertThatThrownBy(() -> live.grpc()
                        .create(CreateRequest.newBuilder()
                                .setMachineId(B)
                                .setShardId("s1")
                                .setShardEpoch(1)
                                .setSequenceNumber(4)
                                .build()))
                .isInstanceOf(StatusRuntimeException.class)
                .hasMessageContaining("FAILED_PRECONDITION");
        live.client().awaitState(B, MachineState.MACHINE_STATE_IDLE);
        live.client().configure(B, "fault-error", new byte[] {1});
        live.client().awaitState(B, MachineState.MACHINE_STATE_FAILED);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Scrape after = scrape();
            // the reference's six
            assertThat(after.value("bigfleet_proxmox_api_calls_total{op=\"CloneVM\",outcome=\"success\"}"))
                    .isEqualTo(2.0);
            assertThat(after.value("bigfleet_proxmox_api_calls_total{op=\"Configure\",outcome=\"error\"}"))
                    .isEqualTo(1.0);
            assertThat(after.value("bigfleet_proxmox_api_calls_total{op=\"DeleteVM\",outcome=\"success\"}"))
                    .isEqualTo(1.0);
            assertThat(after.value("bigfleet_proxmox_api_duration_seconds_count{op=\"CloneVM\"}"))
                    .isEqualTo(2.0);
            assertThat(after.value("bigfleet_proxmox_api_duration_seconds_bucket{op=\"CloneVM\",le=\"1800.0\"}"))
                    .isEqualTo(2.0);
            assertThat(after.value("bigfleet_proxmox_grpc_requests_total{code=\"OK\",method=\"Create\"}"))
                    .isEqualTo(2.0);
            assertThat(after.value(
                            "bigfleet_proxmox_grpc_requests_total{code=\"FailedPrecondition\",method=\"Create\"}"))
                    .isEqualTo(1.0);
            assertThat(after.value("bigfleet_proxmox_grpc_requests_total{code=\"OK\",method=\"Get\"}"))
                    .isPositive();
            assertThat(after.value("bigfleet_proxmox_grpc_request_duration_seconds_count{method=\"Drain\"}"))
                    .isEqualTo(1.0);
            assertThat(after.has("bigfleet_proxmox_panics_total")).isTrue();
            assertThat(after.value("bigfleet_proxmox_reconcile_total{outcome=\"success\"}"))
                    .isPositive();
            // what the reference lacked
            assertThat(after.value("bigfleet_proxmox_transitions_total{kind=\"create\",outcome=\"success\"}"))
                    .isEqualTo(2.0);
            assertThat(after.value("bigfleet_proxmox_transitions_total{kind=\"configure\",outcome=\"error\"}"))
                    .isEqualTo(1.0);
            assertThat(after.value(
                            "bigfleet_proxmox_transition_duration_seconds_count{kind=\"drain\",outcome=\"success\"}"))
                    .isEqualTo(1.0);
            assertThat(after.value("bigfleet_proxmox_fenced_total{kind=\"create\"}"))
                    .isEqualTo(1.0);
            assertThat(
                            after.value(
                                    "bigfleet_proxmox_machines{instance_type=\"pve.large\",state=\"SPECULATIVE\",zone=\"pve-a\"}"))
                    .isEqualTo(3.0);
            assertThat(after.value(
                            "bigfleet_proxmox_machines{instance_type=\"pve.large\",state=\"FAILED\",zone=\"pve-a\"}"))
                    .isEqualTo(1.0);
            assertThat(after.value("bigfleet_proxmox_hourly_cost_usd")).isEqualTo(0.0368);
            assertThat(after.value("bigfleet_proxmox_state_duration_seconds_count{state=\"CONFIGURED\"}"))
                    .isEqualTo(1.0);
            assertThat(after.value("bigfleet_proxmox_store_commit_duration_seconds_count"))
                    .isPositive();
            assertThat(after.has("bigfleet_proxmox_store_commit_errors_total")).isTrue();
            // the JVM and the process, by the usual names
            assertThat(after.value("jvm_memory_used_bytes{area=\"heap\"}")).isPositive();
            assertThat(after.value("jvm_threads_current")).isPositive();
            assertThat(after.text)
                    .contains("# TYPE jvm_gc_collections_total counter\n")
                    .contains("jvm_gc_collections_total{gc=")
                    .contains("# TYPE jvm_gc_collection_seconds_total counter\n")
                    .contains("# TYPE process_cpu_seconds_total counter\n");
            assertThat(after.value("process_cpu_seconds_total")).isPositive();
            assertThat(after.value("process_resident_memory_bytes")).isGreaterThan(16 * 1024 * 1024);
            assertThat(after.value("process_open_fds")).isPositive();
            assertThat(after.value("process_start_time_seconds"))
                    .isBetween(System.currentTimeMillis() / 1000.0 - 3600, System.currentTimeMillis() / 1000.0);
            assertThat(after.text)
                    .containsPattern(
                            "(?m)^bigfleet_proxmox_build_info\\{commit=\"[^\"]+\",version=\"[^\"]+\"\\} 1(\\.0)?$");
        });
    }

    @Test
    void everyExportedFamilyIsOnTheMetricsReferencePage() throws Exception {
        Set<String> exported = new TreeSet<>();
        Matcher type = Pattern.compile("(?m)^# TYPE (\\S+) \\S+$").matcher(scrape().text);
        while (type.find()) {
            exported.add(type.group(1));
        }
        Set<String> documented = ReferenceMetricsPage.families(ReferenceMetricsPage.FILE);
        assertThat(documented).as("families on docs/reference/metrics.md").containsAll(exported);
        // exported only by a backend that reports whether its API answers (the real one), with --state,
        // with --nodes (one series per node), or with --tls-ca (client certificates)
        Set<String> apiOnly = Set.of(
                "bigfleet_proxmox_api_up",
                "bigfleet_proxmox_api_breaker_open",
                "bigfleet_proxmox_state_file_bytes",
                "bigfleet_proxmox_node_schedulable",
                "bigfleet_proxmox_identity_refusals_total");
        assertThat(documented)
                .as("documented families this provider does not export")
                .allMatch(f -> exported.contains(f) || apiOnly.contains(f));
    }

    @Test
    void promtoolAcceptsALiveScrape() throws Exception {
        Path promtool = ExternalTools.require("promtool");
        live.client().state(A); // at least one gRPC series in the scrape
        Path file = Files.createTempFile("scrape", ".prom");
        try {
            Files.writeString(file, scrape().text);
            Process check = new ProcessBuilder(promtool.toString(), "check", "metrics")
                    .redirectInput(file.toFile())
                    .redirectErrorStream(true)
                    .start();
            String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(check.exitValue())
                    .as("promtool check metrics: %s", output)
                    .isZero();
            assertThat(output).as("promtool lint findings").isBlank();
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
