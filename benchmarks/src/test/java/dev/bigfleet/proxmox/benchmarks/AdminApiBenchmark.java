package dev.bigfleet.proxmox.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.testing.TestingProvider;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The admin API and {@code /metrics} with 100,000 machines, over real HTTP on loopback. Not part
 * of the normal test run (the name matches no surefire include); run it with
 * {@code mvn -B -pl server test -Dtest=AdminApiBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 * Prints a Markdown table and writes it to {@code target/admin-benchmark.md}.
 */
class AdminApiBenchmark {
    static final int MACHINES = 100_000;
    static final int CREATED = 2_000;
    static final int WARMUP = 30;
    static final int SAMPLES = 200;

    // timings of one run; never compared
    @SuppressWarnings("ArrayRecordComponent")
    private record Result(String what, long[] nanos, int bytes) {
        double percentile(double p) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
        }
    }

    private static Result measure(
            TestingProvider live, String what, int samples, java.util.function.IntFunction<String> path)
            throws Exception {
        for (int i = 0; i < WARMUP; i++) {
            assertThat(live.get(path.apply(i)).statusCode()).isEqualTo(200);
        }
        long[] nanos = new long[samples];
        int bytes = 0;
        for (int i = 0; i < samples; i++) {
            long start = System.nanoTime();
            HttpResponse<String> r = live.get(path.apply(i));
            nanos[i] = System.nanoTime() - start;
            assertThat(r.statusCode()).isEqualTo(200);
            bytes = r.body().length();
        }
        return new Result(what, nanos, bytes);
    }

    @Test
    void hundredThousandMachines() throws Exception {
        long boot = System.nanoTime();
        try (TestingProvider live = TestingProvider.builder()
                .seedCount(MACHINES)
                .fakeLatency(java.time.Duration.ZERO)
                .build()) {
            double startup = (System.nanoTime() - boot) / 1e9;
            for (int i = 0; i < CREATED; i++) {
                live.client().create(String.format("proxmox/OnDemand/pve.large/pve-a/%03d", i));
            }
            List<Result> results = new ArrayList<>();
            int pages = MACHINES / 500;
            results.add(measure(
                    live,
                    "`/api/v1/machines?limit=500` (by id, pages across the table)",
                    SAMPLES,
                    i -> "/api/v1/machines?limit=500&offset=" + (i % pages) * 500));
            results.add(measure(
                    live,
                    "`/api/v1/machines?limit=500&sort=time_in_state&order=desc`",
                    SAMPLES,
                    i -> "/api/v1/machines?limit=500&sort=time_in_state&order=desc&offset=" + (i % 20) * 500));
            results.add(measure(
                    live,
                    "`/api/v1/machines?limit=500&state=IDLE&zone=pve-a&q=pve-a`",
                    SAMPLES,
                    i -> "/api/v1/machines?limit=500&state=IDLE&zone=pve-a&q=pve-a"));
            results.add(measure(live, "`/api/v1/summary`", SAMPLES, i -> "/api/v1/summary"));
            results.add(measure(
                    live,
                    "`/api/v1/changes?since=<cursor>` (no change)",
                    SAMPLES,
                    new java.util.function.IntFunction<>() {
                        String cursor;

                        @Override
                        public String apply(int i) {
                            if (cursor == null) {
                                try {
                                    String body = live.get("/api/v1/changes").body();
                                    cursor = body.replaceAll(".*\"cursor\":\"([^\"]+)\".*", "$1");
                                } catch (Exception e) {
                                    throw new IllegalStateException(e);
                                }
                            }
                            return "/api/v1/changes?since=" + cursor;
                        }
                    }));
            results.add(measure(live, "`/metrics` scrape", 100, i -> "/metrics"));

            StringBuilder table = new StringBuilder()
                    .append(String.format(
                            "%,d machines (%,d created over gRPC), started in %.1f s; %d requests per row after %d warm-up%n%n",
                            MACHINES, CREATED, startup, SAMPLES, WARMUP))
                    .append("| request | p50 ms | p95 ms | p99 ms | max ms | response |\n")
                    .append("|---|---:|---:|---:|---:|---:|\n");
            for (Result r : results) {
                table.append(String.format(
                        "| %s | %.1f | %.1f | %.1f | %.1f | %,d KiB |%n",
                        r.what(),
                        r.percentile(50),
                        r.percentile(95),
                        r.percentile(99),
                        r.percentile(100),
                        r.bytes() / 1024));
            }
            System.out.println(table);
            Files.createDirectories(Path.of("target"));
            Files.writeString(Path.of("target", "admin-benchmark.md"), table);
            assertThat(results.get(0).percentile(99))
                    .as("p99 of a 500-row machines page, ms")
                    .isLessThanOrEqualTo(100);
        }
    }
}
