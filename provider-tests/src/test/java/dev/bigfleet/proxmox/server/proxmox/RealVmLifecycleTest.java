package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.ExecResult;
import dev.bigfleet.proxmox.pvesim.GuestConsole;
import dev.bigfleet.proxmox.pvesim.GuestExec;
import dev.bigfleet.proxmox.pvesim.GuestMode;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real-VM lane: a provider on its real backend against a simulated cluster of two nodes whose
 * started VMs are QEMU virtual machines (software emulation) booting the guest image, driven over
 * gRPC through Create, Configure with the setup kit's bootstrap hook, Drain with its drain hook,
 * and Delete for three machines.
 *
 * <p>Before Configure, each guest runs a watcher (perl on the guest's inotify) on the bootstrap
 * path's directory entry, started over the agent; it records every event on the entry with the
 * entry's mode as read then. A file's mode changes only through chmod, which inotify reports as
 * ATTRIB: a record whose creations read 0600 and that has no ATTRIB shows a secret that never had
 * another mode. It must also end with the entry deleted, and the file be gone. A control first
 * shows the watcher is not blind: a file the agent itself creates (0666) is caught.
 */
@Tag("vm")
class RealVmLifecycleTest {
    /** Three guests booting at once under software emulation on a shared two-core machine. */
    private static final Duration BOOT = Duration.ofMinutes(8);

    private static final Duration HOOKS = Duration.ofMinutes(3);
    private static final String KIT = "/usr/local/lib/bigfleet";
    private static final String BLOB_PATH = "/run/bigfleet-bootstrap";
    private static final String WATCHER = "/root/watch-entry.pl";
    private static final String WATCH_LOG = "/root/bootstrap-entry.log";
    private static final String WATCH_PID = "/root/bootstrap-entry.pid";

    @TempDir
    Path dir;

    @Test
    void threeMachinesOnTwoNodesGoThroughTheirLifecycleOnRealVmsAndTheSecretIsOnlyEverReadableByRoot()
            throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                        .roomy()
                        .customize(b -> b.guests(GuestMode.VM))
                        .start();
                TestingProvider provider = TestingProvider.builder()
                        .proxmox(cluster)
                        .seedCount(12)
                        .flags(
                                "--clone-mode",
                                "linked",
                                "--bootstrap-exec",
                                "/bin/sh," + KIT + "/bootstrap-hook.sh",
                                "--drain-exec",
                                "/bin/sh," + KIT + "/drain-hook.sh",
                                // the guest agent answers once the guest has booted
                                "--agent-timeout",
                                "7m",
                                "--create-timeout",
                                "9m")
                        .build()) {
            LifecycleClient client = provider.client();
            List<String> ids = threeOnTwoNodes(client.list());

            ids.forEach(client::create);
            try {
                client.awaitAll(ids, MachineState.MACHINE_STATE_IDLE, BOOT);
            } catch (AssertionError | ConditionTimeoutException e) {
                throw new AssertionError("not all guests came up; their serial consoles:\n" + consoles(cluster), e);
            }
            Map<String, Integer> vmids = new LinkedHashMap<>();
            for (String id : ids) {
                vmids.put(id, vmid(client.get(id)));
            }
            assertThat(vmids.values().stream()
                            .map(v -> cluster.simulator().vm(v).orElseThrow().node())
                            .collect(Collectors.toSet()))
                    .containsExactlyInAnyOrder("pve1", "pve2");
            assertWatcherCatchesAnAgentMadeFile(
                    cluster.simulator().guest(vmids.values().iterator().next()));
            for (int vmid : vmids.values()) {
                assertThat(cluster.simulator().vm(vmid).orElseThrow().running()).isTrue();
                startWatcher(cluster.simulator().guest(vmid), BLOB_PATH, WATCH_LOG, WATCH_PID);
            }

            byte[] blob = joinBlob();
            ids.forEach(id -> client.configure(id, "prod-1", blob));
            client.awaitAll(ids, MachineState.MACHINE_STATE_CONFIGURED, HOOKS);
            for (int vmid : vmids.values()) {
                GuestConsole guest = cluster.simulator().guest(vmid);
                assertThat(guest.mode("/etc/kubernetes/kubelet.conf"))
                        .as("VM %d joined through the bootstrap hook", vmid)
                        .hasValue("600");
                assertThat(guest.mode("/etc/bigfleet/drain.kubeconfig")).hasValue("600");
                assertSecretOnlyEverReadableByRootAndGone(vmid, guest);
            }

            ids.forEach(id -> client.drain(id, 30));
            client.awaitAll(ids, MachineState.MACHINE_STATE_IDLE, HOOKS);
            for (int vmid : vmids.values()) {
                VmView vm = cluster.simulator().vm(vmid).orElseThrow();
                List<GuestExec> drains = vm.execs().stream()
                        .filter(e -> e.commandLine().startsWith("/bin/sh " + KIT + "/drain-hook.sh "))
                        .toList();
                assertThat(drains).as("VM %d ran the drain hook once", vmid).hasSize(1);
                ExecResult drained = drains.get(0).result();
                assertThat(drained).isNotNull();
                assertThat(drained.exitCode()).isZero();
                assertThat(drained.stdout()).contains("node/" + vm.name() + " drained");
                // the blob was not written again
                assertSecretOnlyEverReadableByRootAndGone(
                        vmid, cluster.simulator().guest(vmid));
            }

            ids.forEach(client::delete);
            client.awaitAll(ids, MachineState.MACHINE_STATE_SPECULATIVE, HOOKS);
            for (int vmid : vmids.values()) {
                assertThat(cluster.simulator().vm(vmid))
                        .as("VM %d is destroyed", vmid)
                        .isEmpty();
            }
            assertThat(cluster.clones()).isEmpty();
        }
    }

    /** Each VM's serial console, so a guest that never came up shows where its boot stopped. */
    private static String consoles(TestingProxmoxCluster cluster) {
        StringBuilder out = new StringBuilder();
        for (VmView vm : cluster.simulator().vms()) {
            out.append("--- VM ")
                    .append(vm.node())
                    .append('/')
                    .append(vm.vmid())
                    .append(vm.running() ? " (running)" : " (stopped)")
                    .append(" ---\n")
                    .append(cluster.simulator().serialConsole(vm.vmid()))
                    .append('\n');
        }
        return out.toString();
    }

    /** Two machines of one node's offerings and one of the other's. */
    private static List<String> threeOnTwoNodes(List<Machine> machines) {
        Map<String, List<String>> byZone = machines.stream()
                .sorted((a, b) -> a.getId().compareTo(b.getId()))
                .collect(Collectors.groupingBy(
                        Machine::getZone, LinkedHashMap::new, Collectors.mapping(Machine::getId, Collectors.toList())));
        assertThat(byZone).as("a zone per node: %s", machines).hasSize(2);
        List<List<String>> zones = new ArrayList<>(byZone.values());
        List<String> ids = new ArrayList<>(zones.get(0).subList(0, 2));
        ids.add(zones.get(1).get(0));
        return ids;
    }

    private static int vmid(Machine m) {
        String ref = m.getHost().getRef();
        return Integer.parseInt(ref.substring(ref.lastIndexOf('/') + 1));
    }

    /** Starts the entry watcher in the guest, detached from the agent's exec, and waits until it watches. */
    private static void startWatcher(GuestConsole guest, String path, String log, String pidFile) throws IOException {
        try (InputStream in = RealVmLifecycleTest.class.getResourceAsStream("/guest/watch-entry.pl")) {
            guest.write(WATCHER, in.readAllBytes());
        }
        String dirName = path.substring(0, path.lastIndexOf('/'));
        String entry = path.substring(path.lastIndexOf('/') + 1);
        guest.sh("setsid perl " + WATCHER + " " + dirName + " " + entry + " " + log
                + " </dev/null >/dev/null 2>&1 & echo $! > " + pidFile);
        // perl starting in a software-emulated guest on a busy machine can take a minute
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> guest.readText(log).orElse("").startsWith("watching\n"));
    }

    /** What the watcher recorded after "watching": one line per event. */
    private static List<String> events(GuestConsole guest, String log) {
        return guest.readText(log).orElseThrow().lines().skip(1).toList();
    }

    /**
     * The events that show the entry with another mode than 0600: a mode change (ATTRIB), lost
     * events (OVERFLOW), a creation or rename into place not read as 0600, any other mode read.
     */
    private static List<String> notOnly0600(List<String> events) {
        List<String> bad = new ArrayList<>();
        for (String event : events) {
            int space = event.indexOf(' ');
            List<String> kinds = List.of(event.substring(0, space).split("\\|", -1));
            String mode = event.substring(space + 1);
            boolean made = kinds.contains("CREATE") || kinds.contains("MOVED_TO");
            if (kinds.contains("ATTRIB")
                    || kinds.contains("OVERFLOW")
                    || (made && !mode.equals("0600"))
                    || !(mode.equals("0600") || mode.equals("gone"))) {
                bad.add(event);
            }
        }
        return bad;
    }

    /**
     * The watcher is not blind: a file the agent itself creates (mode 0666 whatever the umask, as
     * qemu-ga makes it) shows up as not only 0600.
     */
    private static void assertWatcherCatchesAnAgentMadeFile(GuestConsole guest) throws IOException {
        String control = "/run/watcher-control";
        String log = "/root/watcher-control.log";
        startWatcher(guest, control, log, "/root/watcher-control.pid");
        guest.write(control, "not a secret".getBytes(StandardCharsets.UTF_8));
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(notOnly0600(events(guest, log)))
                        .as("what the watcher saw of a file the agent made: %s", events(guest, log))
                        .isNotEmpty());
        guest.sh("kill $(cat /root/watcher-control.pid); rm -f " + control);
    }

    private static void assertSecretOnlyEverReadableByRootAndGone(int vmid, GuestConsole guest) {
        List<String> events = events(guest, WATCH_LOG);
        System.out.println("VM " + vmid + ", events on " + BLOB_PATH + ": " + events);
        assertThat(guest.sh("kill -0 $(cat " + WATCH_PID + ") && echo alive").strip())
                .as("VM %d: the watcher saw everything until now", vmid)
                .isEqualTo("alive");
        assertThat(events).as("VM %d: the bootstrap file was made", vmid).anyMatch(e -> e.startsWith("CREATE"));
        assertThat(notOnly0600(events))
                .as("VM %d: the bootstrap file with another mode than 0600 (or events lost): %s", vmid, events)
                .isEmpty();
        assertThat(events.get(events.size() - 1))
                .as("VM %d: the bootstrap file is deleted at the end", vmid)
                .isEqualTo("DELETE gone");
        assertThat(guest.mode(BLOB_PATH))
                .as("VM %d: the bootstrap file is gone", vmid)
                .isEmpty();
    }

    /** The kit's blob: a tar of a kubeadm JoinConfiguration and the drain credential. */
    private byte[] joinBlob() throws Exception {
        Files.writeString(
                dir.resolve("join.yaml"),
                "apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\n",
                StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("drain.kubeconfig"), "apiVersion: v1\nkind: Config\n", StandardCharsets.UTF_8);
        Process tar = new ProcessBuilder("tar", "-cf", "blob.tar", "join.yaml", "drain.kubeconfig")
                .directory(dir.toFile())
                .inheritIO()
                .start();
        assertThat(tar.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(tar.exitValue()).isZero();
        return Files.readAllBytes(dir.resolve("blob.tar"));
    }
}
