package dev.bigfleet.proxmox.benchmarks;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.DirectVmBoot;
import dev.bigfleet.proxmox.pvesim.GuestImage;
import dev.bigfleet.proxmox.pvesim.GuestMode;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Create to IDLE on real VMs (bench/vm-bench.sh): for 1 and for 3 machines at once, the time from
 * the Create calls over gRPC until every machine is IDLE, through a provider on its real backend
 * against a simulated cluster whose VMs are QEMU guests ({@code --guests vm}, linked clones), set
 * against the raw boot of as many VMs of the same image started directly as the simulator starts
 * them, until each guest agent's first answered ping, measured in the same run, interleaved. The
 * simulator's task delays are off (its latency unit is 0), so besides the real boot the Create
 * spends only the provider's and the API's own time; the ratio of the medians is the provider's
 * overhead. {@code -Dbench.short=true}: one round of 1
 * machine (CI runs it so); {@code -Dbench.rounds=N}: rounds per figure (default 3).
 */
public final class VmBenchmark {
    private static final Duration LIMIT = Duration.ofMinutes(8);

    private VmBenchmark() {}

    public static void main(String[] args) throws Exception {
        boolean isShort = Boolean.getBoolean("bench.short");
        int rounds = Integer.getInteger("bench.rounds", isShort ? 1 : 3);
        int[] sizes = isShort ? new int[] {1} : new int[] {1, 3};
        Path image = GuestImage.vmImage();
        System.out.printf(
                Locale.ROOT,
                "guest VM image %s; %d round(s) per figure; %d cores%n",
                image,
                rounds,
                Runtime.getRuntime().availableProcessors());
        for (int n : sizes) {
            double[] raw = new double[rounds];
            double[] provider = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                raw[r] = rawBoot(n);
                provider[r] = createToIdle(n);
                System.out.printf(
                        Locale.ROOT,
                        "  %d VM(s), round %d: raw boot to first agent ping %.1f s, provider Create to IDLE %.1f s%n",
                        n,
                        r + 1,
                        raw[r],
                        provider[r]);
            }
            double rawMedian = median(raw);
            double providerMedian = median(provider);
            System.out.printf(
                    Locale.ROOT,
                    "%d VM(s): raw boot %.1f s, Create -> IDLE %.1f s (medians of %d): overhead ratio %.2f"
                            + " (target <= 1.15)%n",
                    n,
                    rawMedian,
                    providerMedian,
                    rounds,
                    providerMedian / rawMedian);
        }
    }

    /** Seconds from starting {@code n} QEMU guests at once until every one's agent has answered a ping. */
    private static double rawBoot(int n) throws Exception {
        Path dir = Files.createTempDirectory("vm-bench-raw");
        List<DirectVmBoot> vms = new ArrayList<>();
        try {
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                vms.add(DirectVmBoot.start(dir.resolve("vm" + i), "raw-" + i));
            }
            boolean[] up = new boolean[n];
            long deadline = start + LIMIT.toNanos();
            while (System.nanoTime() < deadline) {
                boolean all = true;
                for (int i = 0; i < n; i++) {
                    if (!up[i]) {
                        up[i] = vms.get(i).agentAnswers();
                        all &= up[i];
                    }
                }
                if (all) {
                    return (System.nanoTime() - start) / 1e9;
                }
            }
            throw new IllegalStateException("the raw guests did not answer within " + LIMIT);
        } finally {
            vms.forEach(DirectVmBoot::close);
            delete(dir);
        }
    }

    /** Seconds from the Create calls until {@code n} machines are IDLE, through the provider. */
    private static double createToIdle(int n) throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                        .roomy()
                        // no simulated task delays: what is left besides the boot is the provider's
                        // (and the API's) own time
                        .latency(Duration.ZERO)
                        .customize(b -> b.guests(GuestMode.VM))
                        .start();
                TestingProvider provider = TestingProvider.builder()
                        .proxmox(cluster)
                        .seedCount(12)
                        .flags("--clone-mode", "linked", "--agent-timeout", "8m", "--create-timeout", "9m")
                        .build()) {
            LifecycleClient client = provider.client();
            List<String> ids =
                    client.list().stream().map(Machine::getId).sorted().limit(n).toList();
            long start = System.nanoTime();
            ids.forEach(client::create);
            client.awaitAll(ids, MachineState.MACHINE_STATE_IDLE, LIMIT);
            return (System.nanoTime() - start) / 1e9;
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private static void delete(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
