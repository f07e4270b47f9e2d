package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/proxmox/bootstrap-hook.sh} and {@code drain-hook.sh} in a simulated VM's real guest
 * (Debian's sh and tar, the kubeadm and kubectl test stand-ins), installed where the template guide
 * puts them and run the way the provider runs them: {@code /bin/sh HOOK BLOB} with a blob made by the
 * host's {@code tar}. Each test gets a fresh VM.
 */
class BootstrapHookTest {
    private static final Path KIT = Path.of("..").toAbsolutePath().normalize().resolve("deploy/proxmox");
    private static final String HOOK = "/usr/local/lib/bigfleet/bootstrap-hook.sh";
    private static final String DRAIN_HOOK = "/usr/local/lib/bigfleet/drain-hook.sh";
    private static final String BLOB = "/run/bigfleet-bootstrap";
    private static final String JOIN = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\n"
            + "discovery:\n  bootstrapToken:\n    apiServerEndpoint: 10.0.0.10:6443\n"
            + "    token: abcdef.0123456789abcdef\n    caCertHashes: [\"sha256:00ff\"]\n";
    private static final String KUBECONFIG =
            "apiVersion: v1\nkind: Config\nusers:\n- name: bigfleet-drain\n" + "  user: {token: drain-s3cr3t}\n";

    static PveSimulator sim;
    static TestClient client;
    static int nextId = 800;

    @TempDir
    Path dir;

    private GuestConsole guest;
    private String name;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1")
                .templateVmid(9000)
                .token("bigfleet@pve!autoscaler=s3cret")
                .build());
        client = TestClient.of(sim);
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @BeforeEach
    void aFreshVmWhoseImageShipsTheHooks() throws IOException {
        int id = nextId++;
        assertThat(client.run(client.post(
                        "/nodes/pve1/qemu/9000/clone", "newid", Integer.toString(id), "name", "node-" + id)))
                .isEqualTo("OK");
        assertThat(client.run(client.post("/nodes/pve1/qemu/" + id + "/status/start")))
                .isEqualTo("OK");
        guest = sim.guest(id);
        name = "node-" + id;
        // the image ships this checkout's hooks
        assertThat(guest.readText(HOOK)).hasValue(Files.readString(KIT.resolve("bootstrap-hook.sh")));
        assertThat(guest.readText(DRAIN_HOOK)).hasValue(Files.readString(KIT.resolve("drain-hook.sh")));
    }

    /** A tar archive of the named files, made by tar itself. */
    private byte[] tar(String... namesAndContents) throws IOException, InterruptedException {
        Path src = Files.createDirectories(dir.resolve("src-" + System.nanoTime()));
        String[] command = new String[3 + namesAndContents.length / 2];
        command[0] = "tar";
        command[1] = "-cf";
        command[2] = dir.resolve("blob.tar").toString();
        for (int i = 0; i < namesAndContents.length; i += 2) {
            Files.writeString(src.resolve(namesAndContents[i]), namesAndContents[i + 1], StandardCharsets.UTF_8);
            command[3 + i / 2] = namesAndContents[i];
        }
        Process p =
                new ProcessBuilder(command).directory(src.toFile()).inheritIO().start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        return Files.readAllBytes(dir.resolve("blob.tar"));
    }

    private ExecResult deliverAndRun(byte[] blob) {
        if (blob != null) {
            guest.write(BLOB, blob);
        } else {
            guest.sh("rm -f " + BLOB);
        }
        return guest.run("/bin/sh", HOOK, BLOB);
    }

    private void assertNoJoinFilesLeft() {
        assertThat(guest.run("/usr/bin/test", "-e", "/run/bigfleet-join").succeeded())
                .isFalse();
    }

    @Test
    void joinsTheNodeAndKeepsOnlyTheDrainCredential() throws Exception {
        ExecResult r = deliverAndRun(tar("join.yaml", JOIN, "drain.kubeconfig", KUBECONFIG));

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("This node has joined the cluster.", "bootstrap-hook: joined");
        assertThat(guest.read("/etc/kubernetes/kubelet.conf")).isPresent();
        assertThat(guest.readText("/etc/bigfleet/drain.kubeconfig")).hasValue(KUBECONFIG);
        assertThat(guest.mode("/etc/bigfleet/drain.kubeconfig")).hasValue("600");
        assertNoJoinFilesLeft();
    }

    @Test
    void aRetriedConfigureSucceedsWithoutJoiningAgain() throws Exception {
        byte[] blob = tar("join.yaml", JOIN, "drain.kubeconfig", KUBECONFIG);
        assertThat(deliverAndRun(blob).exitCode()).isZero();
        ExecResult again = deliverAndRun(blob);
        assertThat(again.exitCode()).isZero();
        assertThat(again.stdout()).contains("has joined its cluster already").doesNotContain("This node has joined");
    }

    @Test
    void everyFailureExitsNonZeroAndLeavesNoJoinFiles() throws Exception {
        ExecResult noBlob = deliverAndRun(null);
        assertThat(noBlob.exitCode()).isEqualTo(2);
        assertThat(noBlob.stderr()).contains("the bootstrap blob /run/bigfleet-bootstrap is missing or empty");

        ExecResult notTar = deliverAndRun("echo hello".getBytes(StandardCharsets.UTF_8));
        assertThat(notTar.exitCode()).isEqualTo(2);
        assertThat(notTar.stderr()).contains("This does not look like a tar archive");

        ExecResult lacksCredential = deliverAndRun(tar("join.yaml", JOIN));
        assertThat(lacksCredential.exitCode()).isEqualTo(2);
        assertThat(lacksCredential.stderr()).contains("drain.kubeconfig: Not found in archive");
        assertNoJoinFilesLeft();

        ExecResult joinFails =
                deliverAndRun(tar("join.yaml", "kind: InitConfiguration\n", "drain.kubeconfig", KUBECONFIG));
        assertThat(joinFails.exitCode()).isEqualTo(1);
        assertThat(joinFails.stdout()).doesNotContain("bootstrap-hook: joined");
        assertThat(guest.read("/etc/kubernetes/kubelet.conf")).isEmpty();
        assertNoJoinFilesLeft();
    }

    @Test
    void theDrainHookDrainsThisNodeWithTheInstalledCredential() throws Exception {
        ExecResult withoutCredential = guest.run("/bin/sh", DRAIN_HOOK, "45");
        assertThat(withoutCredential.exitCode()).isEqualTo(1);
        assertThat(withoutCredential.stderr()).contains("/etc/bigfleet/drain.kubeconfig");

        assertThat(deliverAndRun(tar("join.yaml", JOIN, "drain.kubeconfig", KUBECONFIG))
                        .exitCode())
                .isZero();
        ExecResult r = guest.run("/bin/sh", DRAIN_HOOK, "45");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("node/" + name + " drained");

        ExecResult noTimeout = guest.run("/bin/sh", DRAIN_HOOK);
        assertThat(noTimeout.exitCode()).isEqualTo(2);
        assertThat(noTimeout.stderr()).contains("1: parameter not set");
    }
}
