package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/proxmox/bootstrap-hook.sh} and {@code drain-hook.sh} in the simulator's guest shell,
 * installed where the template guide puts them and run the way the provider runs them: {@code
 * /bin/sh HOOK BLOB} with a blob made by the real {@code tar}.
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

    @TempDir
    Path dir;

    private final Vm vm = new Vm(101, "pve1");
    private final GuestFiles fs = new GuestFiles(vm);

    @BeforeEach
    void installTheHooksAsTheTemplateShipsThem() throws IOException {
        fs.write(HOOK, Files.readAllBytes(KIT.resolve("bootstrap-hook.sh")), 0755);
        fs.write(DRAIN_HOOK, Files.readAllBytes(KIT.resolve("drain-hook.sh")), 0755);
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
            fs.write(BLOB, blob, 0600);
        }
        return new GuestShell(fs).run(List.of("/bin/sh", HOOK, BLOB), "");
    }

    private void assertNoJoinFilesLeft() {
        assertThat(vm.files.keySet()).noneMatch(p -> p.startsWith("/run/bigfleet-join"));
    }

    @Test
    void joinsTheNodeAndKeepsOnlyTheDrainCredential() throws Exception {
        ExecResult r = deliverAndRun(tar("join.yaml", JOIN, "drain.kubeconfig", KUBECONFIG));

        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("This node has joined the cluster.", "bootstrap-hook: joined");
        assertThat(vm.files).containsKey("/etc/kubernetes/kubelet.conf");
        GuestFile credential = vm.files.get("/etc/bigfleet/drain.kubeconfig");
        assertThat(credential.text()).isEqualTo(KUBECONFIG);
        assertThat(credential.modeOctal()).isEqualTo("0600");
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
        assertThat(vm.files).doesNotContainKey("/etc/kubernetes/kubelet.conf");
        assertNoJoinFilesLeft();
    }

    @Test
    void theDrainHookDrainsThisNodeWithTheInstalledCredential() {
        ExecResult r = new GuestShell(fs).run(List.of("/bin/sh", DRAIN_HOOK, "45"), "");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("node/vm-101 drained");

        ExecResult noTimeout = new GuestShell(fs).run(List.of("/bin/sh", DRAIN_HOOK), "");
        assertThat(noTimeout.exitCode()).isEqualTo(2);
        assertThat(noTimeout.stderr()).contains("1: parameter not set");
    }
}
