package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The built-in guest's commands, as a bootstrap-staging client would use them. */
class GuestShellTest {
    private final Vm vm = new Vm(101, "pve1");
    private final GuestFiles fs = new GuestFiles(vm);

    private ExecResult sh(String script) {
        return sh(script, "");
    }

    private ExecResult sh(String script, String stdin) {
        return new GuestShell(fs).run(List.of("/bin/sh", "-c", script), stdin);
    }

    @Test
    void redirectionHonoursTheUmaskAndExistingModes() {
        sh("umask 077; echo one > /run/a");
        assertThat(vm.files.get("/run/a").mode()).isEqualTo(0600);
        sh("echo two >> /run/a");
        assertThat(vm.files.get("/run/a").text()).isEqualTo("one\ntwo\n");
        assertThat(vm.files.get("/run/a").mode()).isEqualTo(0600);
        sh("echo x > /run/b");
        assertThat(vm.files.get("/run/b").mode()).isEqualTo(0644);
    }

    @Test
    void installChmodCatAndRm() {
        sh("install -m 0600 /dev/null /run/blob");
        assertThat(vm.files.get("/run/blob").mode()).isEqualTo(0600);
        fs.write("/run/p1", "AB".getBytes(StandardCharsets.UTF_8), 0666);
        fs.write("/run/p2", "CD".getBytes(StandardCharsets.UTF_8), 0666);
        assertThat(sh("cat /run/p1 /run/p2 > /run/blob && rm -f /run/p1 /run/p2")
                        .exitCode())
                .isZero();
        assertThat(vm.files.get("/run/blob").text()).isEqualTo("ABCD");
        assertThat(vm.files.get("/run/blob").mode()).isEqualTo(0600);
        assertThat(vm.files).doesNotContainKeys("/run/p1", "/run/p2");
        assertThat(new GuestShell(fs)
                        .run(List.of("chmod", "0640", "/run/blob"), "")
                        .exitCode())
                .isZero();
        assertThat(vm.files.get("/run/blob").mode()).isEqualTo(0640);
        ExecResult rm = new GuestShell(fs).run(List.of("rm", "/run/missing"), "");
        assertThat(rm.exitCode()).isEqualTo(1);
        assertThat(rm.stderr()).contains("No such file or directory");
    }

    @Test
    void base64DecodeFromStdinIntoAFile() {
        sh("umask 077 && base64 -d > /run/bin", "aGVsbG8=");
        assertThat(vm.files.get("/run/bin").text()).isEqualTo("hello");
        assertThat(vm.files.get("/run/bin").mode()).isEqualTo(0600);
    }

    @Test
    void andOrAndExit() {
        ExecResult r = sh("false && echo no || echo yes; test -f /nope || exit 4; echo unreachable");
        assertThat(r.stdout()).isEqualTo("yes\n");
        assertThat(r.exitCode()).isEqualTo(4);
        assertThat(sh("echo err 1>&2").stderr()).isEqualTo("err\n");
        assertThat(sh("echo out 2>&1 | cat").stdout()).isEqualTo("out\n");
    }

    @Test
    void scriptFilesRunOnlyWhenPresent() {
        ExecResult missing = new GuestShell(fs).run(List.of("/bin/sh", "/run/bootstrap"), "");
        assertThat(missing.exitCode()).isEqualTo(2);
        fs.write("/run/bootstrap", "exit 9".getBytes(StandardCharsets.UTF_8), 0600);
        assertThat(new GuestShell(fs)
                        .run(List.of("/bin/sh", "/run/bootstrap"), "")
                        .exitCode())
                .isZero();
    }

    @Test
    void kubectlDrainSucceeds() {
        ExecResult r = sh("kubectl drain \"$(hostname)\" --ignore-daemonsets --delete-emptydir-data");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).contains("drained");
    }

    @Test
    void variablesPositionalParametersAndCommandSubstitution() {
        ExecResult r = new GuestShell(fs)
                .run(
                        List.of(
                                "/bin/sh",
                                "-c",
                                "name=\"$1\"; echo \"${name}-$2 $# $(hostname) ${unset:-dflt}\" '$name'",
                                "sh",
                                "a",
                                "b"),
                        "");
        assertThat(r.stdout()).isEqualTo("a-b 2 vm-101 dflt $name\n");
    }

    @Test
    void ifElifElseAndNegation() {
        assertThat(sh("if test -f /nope; then echo a; elif ! test -f /nope; then echo b; else echo c; fi")
                        .stdout())
                .isEqualTo("b\n");
        assertThat(sh("if false; then echo a; fi").exitCode()).isZero();
    }

    @Test
    void errexitStopsAtTheFirstUncheckedFailureAndTheExitTrapRuns() {
        ExecResult r = sh("set -eu; trap 'echo cleanup' EXIT; false || echo checked; if false; then :; fi; "
                + "cat /missing; echo unreachable");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout()).isEqualTo("checked\ncleanup\n");
        ExecResult unset = sh("set -u; echo \"$nothing\"; echo unreachable");
        assertThat(unset.exitCode()).isEqualTo(2);
        assertThat(unset.stderr()).contains("nothing: parameter not set");
    }

    @Test
    void scriptFilesWithAShebangAreInterpretedWithTheirArguments() {
        fs.write(
                "/usr/local/bin/hello",
                "#!/bin/sh\necho \"hello $1\"\nexit 3\n".getBytes(StandardCharsets.UTF_8),
                0755);
        ExecResult viaSh = new GuestShell(fs).run(List.of("/bin/sh", "/usr/local/bin/hello", "you"), "");
        assertThat(viaSh.stdout()).isEqualTo("hello you\n");
        assertThat(viaSh.exitCode()).isEqualTo(3);
        assertThat(new GuestShell(fs)
                        .run(List.of("/usr/local/bin/hello", "path"), "")
                        .stdout())
                .isEqualTo("hello path\n");
        fs.chmod("/usr/local/bin/hello", 0644);
        assertThat(new GuestShell(fs).run(List.of("/usr/local/bin/hello"), "").exitCode())
                .isEqualTo(126);
    }

    @Test
    void rmRecursiveRemovesEverythingUnderADirectory() {
        fs.write("/run/d/a", new byte[] {1}, 0600);
        fs.write("/run/d/e/b", new byte[] {1}, 0600);
        fs.write("/run/dx", new byte[] {1}, 0600);
        assertThat(sh("rm -rf /run/d").exitCode()).isZero();
        assertThat(vm.files).containsOnlyKeys("/run/dx");
    }

    @Test
    void unknownProgramsSucceedQuietly() {
        assertThat(new GuestShell(fs)
                        .run(List.of("systemctl", "restart", "kubelet"), "")
                        .exitCode())
                .isZero();
    }
}
