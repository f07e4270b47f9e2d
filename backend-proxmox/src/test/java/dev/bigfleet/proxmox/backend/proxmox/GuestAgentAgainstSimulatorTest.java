package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.pvesim.ExecResult;
import dev.bigfleet.proxmox.pvesim.GuestConsole;
import dev.bigfleet.proxmox.pvesim.PowerState;
import dev.bigfleet.proxmox.pvesim.RecordedRequest;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.spi.testkit.BackgroundCall;
import dev.bigfleet.proxmox.spi.testkit.TestOperationContext;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the real guest agent does, and how Create and Configure cope: each VM's guest is Debian's
 * qemu-guest-agent in a sandbox, reached through the simulator's API as qemu-server reaches it. The
 * blob is the script the default hook ({@code /bin/sh /run/bigfleet-bootstrap}) runs.
 *
 * <p>Every agent error Proxmox answers has its case: {@code QEMU guest agent is not running} (a
 * booting guest, a busy socket, a frozen agent), {@code Agent error: ...} (a hook the agent cannot
 * start), {@code VM <vmid> qga command '<cmd>' failed - got timeout} (an exec-status the agent did
 * not answer in time: waited out while the hook runs, reported lost when the agent told the exit in
 * the answer nobody read), {@code VM <vmid> is not running} (the VM stopped under the hook) and
 * {@code No QEMU guest agent configured} (an administrator took the agent off the VM, and put it
 * back without restarting it).
 */
class GuestAgentAgainstSimulatorTest {
    private static final String HOOK = "/bin/sh /run/bigfleet-bootstrap";
    /** The command creating the empty 0600 file the blob goes into. */
    private static final String PREPARE = "/bin/sh -c umask 077.*";

    private static final String ID = "proxmox/OnDemand/pve.small/pve1/000";

    private TestingProxmoxCluster cluster;
    private ProxmoxBackend backend;
    private final CountingRecorder calls = new CountingRecorder();

    private CreatedVm start(Map<String, String> overrides) throws Exception {
        cluster = TestingProxmoxCluster.builder().pool(POOL).start();
        backend = SimulatorBackends.backend(cluster, "proxmox", overrides, calls);
        return backend.cloneAndStart(SimulatorBackends.clone(ID, "pve1"), forMachine(ID));
    }

    @AfterEach
    void stop() {
        if (backend != null) {
            backend.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
    }

    private static byte[] blob(String script) {
        return (script + "\n" + Leaks.BLOB_TEXT).getBytes(StandardCharsets.UTF_8);
    }

    private BackendException configureFails(CreatedVm vm, byte[] blob) {
        try {
            backend.applyBootstrap(
                    new BootstrapSpec(new VmTarget(ID, vm.node(), vm.vmid()), "c", blob), forMachine(ID));
        } catch (BackendException e) {
            Leaks.assertNoSecret(e.getMessage());
            return e;
        }
        throw new AssertionError("expected the Configure to fail");
    }

    private BackgroundCall configureInBackground(CreatedVm vm, byte[] blob) {
        return BackgroundCall.start(() -> backend.applyBootstrap(
                new BootstrapSpec(new VmTarget(ID, vm.node(), vm.vmid()), "c", blob),
                TestOperationContext.withDeadline(ID, Duration.ofMinutes(2))));
    }

    private void awaitHookStarted(CreatedVm vm) {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> cluster.simulator().vm((int) vm.vmid()).orElseThrow().execs().stream()
                        .anyMatch(e -> e.commandLine().equals(HOOK)));
    }

    private boolean joined(CreatedVm vm) {
        return cluster.simulator()
                .guest((int) vm.vmid())
                .read("/etc/kubernetes/kubelet.conf")
                .isPresent();
    }

    private long sent(CreatedVm vm, String regex) {
        return cluster.simulator().vm((int) vm.vmid()).orElseThrow().execs().stream()
                .filter(e -> e.commandLine().matches(regex))
                .count();
    }

    /**
     * The request creating the empty 0600 file is carried out and its answer cut: creating the file
     * does no harm run twice, so it is sent again, and the Configure goes on; the hook runs once.
     */
    @Test
    void aCutRequestCreatingTheBlobFileIsSentAgainAndTheConfigureSucceedsRunningTheHookOnce() throws Exception {
        CreatedVm vm = start(Map.of());
        cluster.simulator().faults().dropExecResponses(PREPARE, 1);

        backend.applyBootstrap(
                new BootstrapSpec(new VmTarget(ID, vm.node(), vm.vmid()), "c", Leaks.BLOB), forMachine(ID));

        assertThat(cluster.simulator().requests())
                .as("the exec whose answer was cut")
                .anySatisfy(r -> {
                    assertThat(r.path()).endsWith("/agent/exec");
                    assertThat(r.status()).isZero();
                });
        assertThat(sent(vm, PREPARE)).as("creating the file, sent again").isEqualTo(2);
        assertThat(sent(vm, "^" + HOOK + "$")).as("the hook").isEqualTo(1);
        assertThat(joined(vm)).isTrue();
        assertThat(cluster.simulator().guest((int) vm.vmid()).read("/run/bigfleet-bootstrap"))
                .isEmpty();
    }

    /** The hook's exec carried out and its answer cut: it is never sent again, and the Configure fails as started. */
    @Test
    void aHookWhoseExecAnswerIsCutIsNeverSentTwice() throws Exception {
        CreatedVm vm = start(Map.of());
        cluster.simulator().faults().dropExecResponses(HOOK, 1);

        BackendException e = configureFails(vm, Leaks.BLOB);

        assertThat(e.getMessage()).contains("run " + HOOK + ": agent exec: POST agent/exec:");
        assertThat(e.bootstrapStarted()).as("the hook may have run").isTrue();
        assertThat(e.isTransient()).isFalse();
        assertThat(sent(vm, "^" + HOOK + "$")).as("the hook").isEqualTo(1);
        assertThat(sent(vm, PREPARE)).isEqualTo(1);
    }

    /**
     * The request creating the file meets an agent frozen right after Proxmox's ping: qemu-server
     * answers {@code got timeout}, and the thawed agent carries it out later. It is sent again, and
     * the two runs, whenever each happens, leave one empty 0600 file the blob then goes into.
     */
    @Test
    void aRequestCreatingTheBlobFileThatTheFrozenAgentCarriesOutLateIsHarmless() throws Exception {
        CreatedVm vm = start(Map.of());
        cluster.simulator().faults().freezeAgentBefore((int) vm.vmid(), "guest-exec", Duration.ofSeconds(7));

        backend.applyBootstrap(
                new BootstrapSpec(new VmTarget(ID, vm.node(), vm.vmid()), "c", Leaks.BLOB), forMachine(ID));

        assertThat(answered("POST", "/nodes/pve1/qemu/" + vm.vmid() + "/agent/exec", 500))
                .as("the first request got timeout (and the next ones, while frozen, no ping answer)")
                .isPositive();
        assertThat(sent(vm, "^" + HOOK + "$")).as("the hook").isEqualTo(1);
        assertThat(joined(vm)).isTrue();
    }

    /**
     * What the script creating the file does in the guest's own shell, run as a late copy of a cut
     * request would be: it creates an absent file empty with mode 0600, accepts one it made, and
     * never truncates, rewrites or removes anything else there (it exits {@link
     * GuestScripts#IN_THE_WAY} for it): not the blob already written, not a file of another mode,
     * not a link.
     */
    @Test
    void theScriptCreatingTheFileNeverTouchesAnythingAlreadyThere() throws Exception {
        CreatedVm vm = start(Map.of());
        GuestConsole guest = cluster.simulator().guest((int) vm.vmid());
        String made = "/run/prepare-made";
        String blob = "/run/prepare-blob";
        String open = "/run/prepare-open";
        String link = "/run/prepare-link";

        assertThat(prepare(guest, made).exitCode()).isZero();
        assertThat(guest.mode(made)).hasValue("600");
        assertThat(guest.read(made)).hasValueSatisfying(b -> assertThat(b).isEmpty());
        assertThat(prepare(guest, made).exitCode())
                .as("its own empty file, again")
                .isZero();

        assertThat(prepare(guest, blob).exitCode()).isZero();
        guest.write(blob, Leaks.BLOB);
        assertThat(prepare(guest, blob).exitCode()).isEqualTo(GuestScripts.IN_THE_WAY);
        assertThat(guest.read(blob)).as("the blob written meanwhile").hasValue(Leaks.BLOB);
        assertThat(guest.mode(blob)).hasValue("600");

        guest.write(open, "old".getBytes(StandardCharsets.UTF_8));
        assertThat(guest.mode(open)).as("as the agent makes files").hasValue("666");
        guest.write(open, new byte[0]);
        assertThat(prepare(guest, open).exitCode()).isEqualTo(GuestScripts.IN_THE_WAY);
        assertThat(guest.mode(open)).hasValue("666");

        guest.sh("ln -s /etc/hostname " + link);
        String hostname = guest.readText("/etc/hostname").orElseThrow();
        assertThat(prepare(guest, link).exitCode()).isEqualTo(GuestScripts.IN_THE_WAY);
        assertThat(guest.readText("/etc/hostname")).hasValue(hostname);
        assertThat(guest.sh("test -h " + link + " && echo link")).isEqualTo("link\n");
    }

    /**
     * A file already at the blob's path that the blob must not go into (written by the agent, so
     * world-readable, as an older provider left it) is removed by a command of its own before the
     * file is created anew: the hook reads its blob from a file of mode 0600.
     */
    @Test
    void aWorldReadableFileInTheWayIsRemovedAndTheBlobGoesIntoAFileOfMode0600() throws Exception {
        CreatedVm vm = start(Map.of());
        GuestConsole guest = cluster.simulator().guest((int) vm.vmid());
        guest.write("/run/bigfleet-bootstrap", "an older blob".getBytes(StandardCharsets.UTF_8));
        assertThat(guest.mode("/run/bigfleet-bootstrap")).hasValue("666");
        int before =
                cluster.simulator().vm((int) vm.vmid()).orElseThrow().execs().size();

        backend.applyBootstrap(
                new BootstrapSpec(
                        new VmTarget(ID, vm.node(), vm.vmid()),
                        "c",
                        blob("stat -c %a /run/bigfleet-bootstrap > /root/mode-seen")),
                forMachine(ID));

        assertThat(guest.readText("/root/mode-seen")).hasValue("600\n");
        List<String> sent = cluster.simulator().vm((int) vm.vmid()).orElseThrow().execs().stream()
                .skip(before)
                .map(e -> e.commandLine())
                .toList();
        assertThat(sent)
                .satisfiesExactly(
                        c -> assertThat(c).matches(PREPARE),
                        c -> assertThat(c).isEqualTo("rm -f /run/bigfleet-bootstrap"),
                        c -> assertThat(c).matches(PREPARE),
                        c -> assertThat(c).isEqualTo(HOOK),
                        c -> assertThat(c).isEqualTo("rm -f /run/bigfleet-bootstrap"));
        assertThat(joined(vm)).isTrue();
    }

    private static ExecResult prepare(GuestConsole guest, String file) {
        return guest.run(GuestScripts.prepare(List.of(file)).toArray(String[]::new));
    }

    @Test
    void aHookKilledByASignalFailsConfigureWithTheSignalAndNoExitCode() throws Exception {
        CreatedVm vm = start(Map.of());

        BackendException e = configureFails(vm, blob("kill -9 $$"));

        assertThat(e.getMessage())
                .isEqualTo(
                        "configure: bootstrap hook \"" + HOOK + "\" on VM pve1/" + vm.vmid() + " killed by signal 9");
        assertThat(e.bootstrapStarted()).isTrue();
        assertThat(cluster.simulator().guest((int) vm.vmid()).read("/run/bigfleet-bootstrap"))
                .isEmpty();
    }

    @Test
    void anOutputTheAgentCutIsQuotedAsCut() throws Exception {
        CreatedVm vm = start(Map.of());

        BackendException e = configureFails(vm, blob("yes lost | head -c 17000000 >&2; echo the-end >&2; exit 4"));

        assertThat(e.getMessage())
                .startsWith("configure: bootstrap hook \"" + HOOK + "\" on VM pve1/" + vm.vmid() + " exited with code 4"
                        + " (the guest agent kept only the first 16 MiB of its stderr;")
                .contains("lost\nlost\nlost")
                .doesNotContain("the-end");
        assertThat(e.getMessage().getBytes(StandardCharsets.UTF_8).length).isLessThan(2500);
    }

    @Test
    void anExitStatusWhoseAnswersWereLostIsReportedLostNotAsAnError() throws Exception {
        CreatedVm vm = start(Map.of());
        // kubectl drain (the stand-in) ends at once; the answers to the next ten polls (about 7 s of
        // them) never arrive, and one of them carried its exit: the agent tells it once
        cluster.simulator().faults().dropResponses("GET", "/nodes/pve1/qemu/\\d+/agent/exec-status", 10);

        BackendException e;
        try {
            backend.drain(new DrainSpec(new VmTarget(ID, vm.node(), vm.vmid()), "c", 30), forMachine(ID));
            throw new AssertionError("expected the Drain to fail");
        } catch (BackendException failed) {
            e = failed;
        }

        int pid = cluster.simulator()
                .vm((int) vm.vmid())
                .orElseThrow()
                .execs()
                .get(0)
                .pid();
        assertThat(e.getMessage())
                .isEqualTo("drain: drain VM pve1/" + vm.vmid() + ": the exit status was lost (the answer carrying it"
                        + " did not arrive and the guest agent has forgotten pid " + pid + ")");
        assertThat(e.isTransient()).isFalse();
    }

    @Test
    void anAgentSocketHeldByAnotherClientIsWaitedOut() throws Exception {
        CreatedVm vm = start(Map.of());
        cluster.simulator().faults().occupyAgent((int) vm.vmid(), Duration.ofSeconds(5));

        backend.applyBootstrap(
                new BootstrapSpec(new VmTarget(ID, vm.node(), vm.vmid()), "c", Leaks.BLOB), forMachine(ID));

        assertThat(joined(vm)).isTrue();
    }

    @Test
    void anAgentThatStopsAnsweringWhileTheHookRunsIsWaitedFor() throws Exception {
        CreatedVm vm = start(Map.of());
        BackgroundCall configure = configureInBackground(vm, blob("sleep 2"));
        awaitHookStarted(vm);

        cluster.simulator().faults().agentNeverUp((int) vm.vmid());
        Thread.sleep(4000);
        cluster.simulator().faults().clear();

        assertThat(configure.await(Duration.ofSeconds(90))).isTrue();
        assertThat(configure.failure()).isNull();
        assertThat(joined(vm)).isTrue();
    }

    @Test
    void anAgentRestartedUnderTheHookFailsConfigureAsStartedWithItsOutcomeUnknown() throws Exception {
        CreatedVm vm = start(Map.of());
        BackgroundCall configure = configureInBackground(vm, blob("sleep 3"));
        awaitHookStarted(vm);

        cluster.simulator().faults().restartAgent((int) vm.vmid());

        assertThat(configure.await(Duration.ofSeconds(90))).isTrue();
        assertThat(configure.failure()).isInstanceOf(BackendException.class);
        BackendException e = (BackendException) configure.failure();
        assertThat(e.getMessage())
                .contains("run " + HOOK + ": the guest agent no longer knows pid")
                .contains("it restarted while the program ran");
        assertThat(e.bootstrapStarted()).isTrue();
        assertThat(e.isTransient()).isFalse();
    }

    @Test
    void aHookTheAgentCannotStartFailsConfigureWithItsErrorAndNeverCountsAsStarted() throws Exception {
        CreatedVm vm = start(Map.of("bootstrap-exec", "/usr/local/lib/bigfleet/no-such-hook"));

        BackendException e = configureFails(vm, Leaks.BLOB);

        assertThat(e.getMessage())
                .contains("agent exec: POST agent/exec: HTTP 500: Agent error: Guest agent command failed, error was"
                        + " 'Failed to execute child process")
                .contains("/usr/local/lib/bigfleet/no-such-hook")
                .contains("No such file or directory");
        assertThat(e.bootstrapStarted()).isFalse();
        assertThat(e.isTransient()).isFalse();
        GuestConsole guest = cluster.simulator().guest((int) vm.vmid());
        assertThat(guest.read("/run/bigfleet-bootstrap"))
                .as("the blob is deleted")
                .isEmpty();
    }

    private int answered(String method, String pathRegex, int status) {
        int n = 0;
        for (RecordedRequest r : cluster.simulator().requests()) {
            if (r.method().equals(method) && r.path().matches(pathRegex) && r.status() == status) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aCreateWaitsOutTheBootWindowInWhichTheAgentChannelAcceptsButNothingAnswers() throws Exception {
        cluster = TestingProxmoxCluster.builder().pool(POOL).start();
        backend = SimulatorBackends.backend(cluster, "proxmox", Map.of(), calls);
        // the guest boots but its agent does not answer yet: QEMU's end of the channel takes the
        // pings, and qemu-server answers each after 3 s with "QEMU guest agent is not running"
        cluster.simulator().faults().agentNeverUpForNewVms(true);
        AtomicReference<CreatedVm> created = new AtomicReference<>();
        BackgroundCall create = BackgroundCall.start(() -> created.set(backend.cloneAndStart(
                SimulatorBackends.clone(ID, "pve1"), TestOperationContext.withDeadline(ID, Duration.ofMinutes(2)))));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> answered("POST", "/nodes/pve1/qemu/\\d+/agent/ping", 500) >= 2);
        assertThat(create.finished()).isFalse();

        cluster.simulator().faults().clear();

        assertThat(create.await(Duration.ofSeconds(90))).isTrue();
        assertThat(create.failure()).isNull();
        assertThat(cluster.simulator().guest((int) created.get().vmid()).agentAnswers())
                .isTrue();
    }

    @Test
    void anExecStatusThatGotTimeoutWhileTheHookRunsIsWaitedOutNotTakenForTheHooksFailure() throws Exception {
        CreatedVm vm = start(Map.of());
        BackgroundCall configure = configureInBackground(vm, blob("sleep 12"));
        awaitHookStarted(vm);

        // the agent answers the ping before the next exec-status, then is frozen for 7 s: qemu-server
        // gives up on the exec-status after 5 s ("VM <vmid> qga command 'guest-exec-status' failed -
        // got timeout"), and the pings meanwhile get "QEMU guest agent is not running"
        cluster.simulator().faults().freezeAgentBefore((int) vm.vmid(), "guest-exec-status", Duration.ofSeconds(7));

        assertThat(configure.await(Duration.ofSeconds(90))).isTrue();
        assertThat(configure.failure()).isNull();
        assertThat(joined(vm)).isTrue();
        assertThat(answered("GET", "/nodes/pve1/qemu/" + vm.vmid() + "/agent/exec-status", 500))
                .as("an exec-status timed out")
                .isPositive();
        assertThat(cluster.simulator().guest((int) vm.vmid()).read("/run/bigfleet-bootstrap"))
                .isEmpty();
    }

    @Test
    void anExitStatusTheFrozenAgentToldAfterItsTimeoutIsReportedLost() throws Exception {
        CreatedVm vm = start(Map.of());
        BackgroundCall configure = configureInBackground(vm, blob("sleep 1"));
        awaitHookStarted(vm);

        // the exec-status after the ping finds the agent frozen for 7 s: qemu-server gives up after
        // 5 s, and the thawed agent then reads that exec-status, reports the exit nowhere and forgets
        // the pid
        cluster.simulator().faults().freezeAgentBefore((int) vm.vmid(), "guest-exec-status", Duration.ofSeconds(7));

        assertThat(configure.await(Duration.ofSeconds(90))).isTrue();
        assertThat(configure.failure()).isInstanceOf(BackendException.class);
        BackendException e = (BackendException) configure.failure();
        assertThat(e.getMessage())
                .contains("run " + HOOK + ": the exit status was lost (the answer carrying it did not arrive and the"
                        + " guest agent has forgotten pid");
        assertThat(e.bootstrapStarted()).isTrue();
    }

    @Test
    void aVmStoppedUnderTheHookFailsConfigureAsStartedWithProxmoxsAnswer() throws Exception {
        CreatedVm vm = start(Map.of());
        BackgroundCall configure = configureInBackground(vm, blob("sleep 30"));
        awaitHookStarted(vm);

        cluster.simulator().faults().setPower((int) vm.vmid(), PowerState.STOPPED);

        assertThat(configure.await(Duration.ofSeconds(60))).isTrue();
        assertThat(configure.failure()).isInstanceOf(BackendException.class);
        BackendException e = (BackendException) configure.failure();
        assertThat(e.getMessage())
                .contains("run " + HOOK + ": agent exec-status:")
                .contains("VM " + vm.vmid() + " is not running");
        assertThat(e.bootstrapStarted()).isTrue();
        assertThat(e.isTransient()).isFalse();
        Leaks.assertNoSecret(e.getMessage());
    }

    @Test
    void aVmWhoseAgentAnAdministratorTookOffFailsConfigureAtOnceSayingSo() throws Exception {
        CreatedVm vm = start(Map.of());
        int vmid = (int) vm.vmid();
        cluster.simulator().faults().setPower(vmid, PowerState.STOPPED);
        cluster.simulator().faults().deleteConfigKey(vmid, "agent");
        cluster.simulator().faults().setPower(vmid, PowerState.RUNNING);

        long started = System.nanoTime();
        BackendException e = configureFails(vm, blob("echo never"));
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(e.getMessage())
                .isEqualTo("configure: VM pve1/" + vmid + " runs without the guest agent the provider needs"
                        + " (Proxmox: No QEMU guest agent configured): its config has agent 0 or unset, or had"
                        + " when the VM started (a changed agent line takes a restart)");
        assertThat(e.isTransient()).as("no retry brings the agent back").isFalse();
        assertThat(e.bootstrapStarted()).isFalse();
        assertThat(took).as("failed at once, not after the agent timeout").isLessThan(Duration.ofSeconds(30));
        assertThat(cluster.simulator().vm(vmid).orElseThrow().execs())
                .as("nothing ran in the guest")
                .isEmpty();
    }

    @Test
    void anAgentPutBackWithoutARestartIsProxmoxsNoAgentConfiguredAndFailsConfigureAtOnce() throws Exception {
        CreatedVm vm = start(Map.of());
        int vmid = (int) vm.vmid();
        cluster.simulator().faults().setPower(vmid, PowerState.STOPPED);
        cluster.simulator().faults().deleteConfigKey(vmid, "agent");
        cluster.simulator().faults().setPower(vmid, PowerState.RUNNING);
        // back in the config Proxmox shows, yet QEMU runs without the channel until a restart
        cluster.simulator().faults().setConfigKeyNotHotplugged(vmid, "agent", "1");

        long started = System.nanoTime();
        BackendException e = configureFails(vm, blob("echo never"));
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(e.getMessage())
                .contains("(Proxmox: No QEMU guest agent configured)")
                .contains("a changed agent line takes a restart");
        assertThat(e.isTransient()).as("no retry brings the agent back").isFalse();
        assertThat(e.bootstrapStarted()).isFalse();
        assertThat(took).as("failed at once, not after the agent timeout").isLessThan(Duration.ofSeconds(30));
        assertThat(cluster.simulator().vm(vmid).orElseThrow().execs())
                .as("nothing ran in the guest")
                .isEmpty();
    }
}
