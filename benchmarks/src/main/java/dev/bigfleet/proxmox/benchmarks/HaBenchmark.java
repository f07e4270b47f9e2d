package dev.bigfleet.proxmox.benchmarks;

import dev.bigfleet.proxmox.testing.TestingPostgres;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Figures for replicas on PostgreSQL (BENCHMARKS.md), in one run beside the SQLite figures:
 * acknowledged mutations per second with 64 callers at 1,000 and 100,000 machines on SQLite, and on
 * PostgreSQL with a standby following the leader meanwhile (as replicas run), and how late the
 * standby's view is ({@code bigfleet_proxmox_standby_lag_seconds}, sampled every 250 ms). The
 * providers run as {@code bin/proxmox}; PostgreSQL is a real server on this machine (Debian's
 * package, default settings: fsync on, {@code synchronous_commit=on}).
 *
 * <p>Run with {@code bench/ha-bench.sh} ({@code --short}: small inventories, a few seconds each).
 */
public final class HaBenchmark {
    private static final int CALLERS = 64;

    public static void main(String[] args) throws Exception {
        BenchScale scale = BenchScale.fromSystemProperties();
        int warmup = scale.warmupSeconds();
        int seconds = scale.measuredSeconds();
        Path dir = Files.createTempDirectory("ha-bench");
        Path log = dir.resolve("provider.log");
        scale.announce(log, "");
        try (TestingPostgres postgres = TestingPostgres.start()) {
            for (int machines : new int[] {scale.small(), scale.large()}) {
                double sqlite = throughput(
                        log,
                        machines,
                        warmup,
                        seconds,
                        "--state",
                        dir.resolve(machines + ".db").toString());
                String db = postgres.createDatabase();
                String[] shared = {
                    "--state",
                    postgres.stateUrl(db),
                    "--state-password-file",
                    postgres.passwordFile().toString()
                };
                double pg = replicated(log, machines, warmup, seconds, shared);
                System.out.printf(
                        "%,d machines: SQLite %,.0f acknowledged/s, PostgreSQL (leader + following standby) %,.0f/s"
                                + " (%.0f%% of SQLite)%n",
                        machines, sqlite, pg, 100 * pg / sqlite);
            }
        }
    }

    private static double throughput(Path log, int machines, int warmup, int seconds, String... state)
            throws Exception {
        List<String> flags = new ArrayList<>(List.of("--seed-count", Integer.toString(machines)));
        flags.addAll(List.of(state));
        try (TestingProvider provider = Providers.start(log, flags.toArray(String[]::new))) {
            System.out.printf(
                    "  seeded %,d machines, ready after %.2f s%n", machines, Providers.readySeconds(provider));
            return load(provider, warmup, seconds);
        }
    }

    private static double replicated(Path log, int machines, int warmup, int seconds, String... state)
            throws Exception {
        List<String> flags = new ArrayList<>(List.of("--seed-count", Integer.toString(machines)));
        flags.addAll(List.of(state));
        String[] args = flags.toArray(String[]::new);
        try (TestingProvider leader = Providers.start(log, args)) {
            System.out.printf(
                    "  PostgreSQL: seeded %,d machines, leading after %.2f s%n",
                    machines, Providers.readySeconds(leader));
            try (TestingProvider standby = Providers.start(log, args)) {
                awaitHealthy(standby);
                List<Double> lags = new ArrayList<>();
                AtomicBoolean sampling = new AtomicBoolean(true);
                Thread sampler = new Thread(() -> sample(standby, lags, sampling), "lag-sampler");
                GrpcLifecycleLoad load = new GrpcLifecycleLoad(leader.grpcPort());
                load.start(CALLERS);
                Thread.sleep(warmup * 1000L);
                sampler.start();
                GrpcLifecycleLoad.Figures figures = load.measure(seconds);
                sampling.set(false);
                sampler.join();
                load.close();
                lags.sort(Double::compare);
                System.out.printf(
                        "  standby lag under that load (%d samples): p50 %.3f s, p99 %.3f s, max %.3f s%n",
                        lags.size(),
                        lags.isEmpty() ? Double.NaN : lags.get(lags.size() / 2),
                        lags.isEmpty() ? Double.NaN : lags.get(Math.min(lags.size() - 1, lags.size() * 99 / 100)),
                        lags.isEmpty() ? Double.NaN : lags.get(lags.size() - 1));
                return figures.acknowledgedPerSecond();
            }
        }
    }

    private static double load(TestingProvider provider, int warmup, int seconds) throws Exception {
        GrpcLifecycleLoad load = new GrpcLifecycleLoad(provider.grpcPort());
        load.start(CALLERS);
        Thread.sleep(warmup * 1000L);
        GrpcLifecycleLoad.Figures figures = load.measure(seconds);
        load.close();
        return figures.acknowledgedPerSecond();
    }

    private static void awaitHealthy(TestingProvider p) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 3000; i++) {
            try {
                if (http.send(get(p, "/healthz"), HttpResponse.BodyHandlers.discarding())
                                .statusCode()
                        == 200) {
                    return;
                }
            } catch (java.io.IOException notYet) {
                // not listening yet
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the standby did not start");
    }

    private static void sample(TestingProvider standby, List<Double> lags, AtomicBoolean sampling) {
        HttpClient http = HttpClient.newHttpClient();
        while (sampling.get()) {
            try {
                String body = http.send(get(standby, "/metrics"), HttpResponse.BodyHandlers.ofString())
                        .body();
                for (String line : body.split("\n", -1)) {
                    if (line.startsWith("bigfleet_proxmox_standby_lag_seconds ")) {
                        lags.add(Double.parseDouble(line.substring(line.indexOf(' ') + 1)));
                    }
                }
                Thread.sleep(250);
            } catch (java.io.IOException e) {
                // a scrape missed; the next one counts
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static HttpRequest get(TestingProvider p, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p.httpPort() + path))
                .build();
    }
}
