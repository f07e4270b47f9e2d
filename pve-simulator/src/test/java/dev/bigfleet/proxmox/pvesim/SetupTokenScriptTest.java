package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/proxmox/setup-token.sh} against {@link PveumStub}, a {@code pveum} that checks every
 * command line and privilege name against the privileges of the PVE version it plays (served by
 * {@link PveumStubServer}, so a call costs a loopback round trip, not a JVM start).
 */
class SetupTokenScriptTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path SCRIPT = ROOT.resolve("deploy/proxmox/setup-token.sh");
    private static final String TOKEN = "bigfleet@pve!autoscaler";
    private static final List<String> PATHS = List.of(
            "/pool/bigfleet",
            "/nodes",
            "/storage/local-lvm",
            "/storage/ceph",
            "/sdn/zones/localnetwork/vmbr0",
            "/vms/9000");
    private static final String[] SETUP = {"--storage", "local-lvm,ceph", "--bridge", "vmbr0", "--template", "9000"};
    private static final String[] SETUP_9 = concat(SETUP, "--pve-version", "9");

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {}

    /** The pveum the scripts of this test call, playing the PVE version of the last {@link #run}. */
    private PveumStubServer stub;

    @AfterEach
    void stopStub() throws IOException {
        if (stub != null) {
            stub.close();
        }
    }

    private Run run(int pveVersion, String... args) throws IOException, InterruptedException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        stopStub();
        stub = PveumStubServer.install(bin, dir, pveVersion);
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS))
                .as("setup-token.sh finished")
                .isTrue();
        return new Run(p.exitValue(), Files.readString(dir.resolve("out")), Files.readString(dir.resolve("err")));
    }

    private List<String> state(String kind) throws IOException {
        return Files.readAllLines(dir.resolve("state")).stream()
                .filter(l -> l.startsWith(kind + "\t"))
                .map(l -> l.substring(kind.length() + 1))
                .toList();
    }

    private Set<String> rolePrivileges() throws IOException {
        List<String> roles = state("role");
        assertThat(roles).hasSize(1);
        return new LinkedHashSet<>(List.of(roles.get(0).split("\t", -1)[1].split(",", -1)));
    }

    private String secret() throws IOException {
        return state("token").get(0).split("\t", -1)[1];
    }

    private int calls() throws IOException {
        Path log = dir.resolve("calls.log");
        return Files.exists(log) ? Files.readAllLines(log).size() : 0;
    }

    @Test
    void createsRoleUserTokenAndAclsOnPve9WithTheSecretInAPrivateFile() throws Exception {
        Run run = run(9, SETUP_9);
        assertThat(run.exit()).as(run.err()).isZero();

        assertThat(rolePrivileges()).isEqualTo(readmePrivileges(9)).allMatch(Privileges.PVE9::contains);
        assertThat(state("user")).containsExactly("bigfleet@pve");
        assertThat(state("pool")).containsExactly("bigfleet");
        for (String path : PATHS) {
            assertThat(state("acl"))
                    .contains(
                            path + " BigFleetProvider user bigfleet@pve 1",
                            path + " BigFleetProvider token " + TOKEN + " 1");
        }
        Path secretFile = dir.resolve("bigfleet-token.secret");
        assertThat(Files.readString(secretFile)).isEqualTo(secret() + "\n");
        assertThat(Files.getPosixFilePermissions(secretFile))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        assertThat(run.out() + run.err()).doesNotContain(secret());
        assertThat(run.out())
                .contains("--proxmox-token-id '" + TOKEN + "' --proxmox-token-file ./bigfleet-token.secret");
    }

    @Test
    void aSecondRunChangesNothingAndPutsTheRoleBack() throws Exception {
        assertThat(run(9, SETUP_9).exit()).isZero();
        String secret = secret();
        List<String> acls = state("acl");
        // someone trims the role by hand
        Files.writeString(
                dir.resolve("state"),
                Files.readString(dir.resolve("state"))
                        .replaceAll("(?m)^role\tBigFleetProvider\t.*$", "role\tBigFleetProvider\tVM.Audit"));

        Run again = run(9, SETUP_9);
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(again.out())
                .contains("pool bigfleet exists", "user bigfleet@pve exists", "token " + TOKEN + " exists");
        assertThat(rolePrivileges()).isEqualTo(readmePrivileges(9));
        assertThat(secret()).isEqualTo(secret);
        assertThat(Files.readString(dir.resolve("bigfleet-token.secret"))).isEqualTo(secret + "\n");
        assertThat(state("acl")).isEqualTo(acls);
        assertThat(state("user")).hasSize(1);
        assertThat(state("token")).hasSize(1);
    }

    @Test
    void pve8GetsItsOwnPrivilegeNamesAndRefusesPve9Ones() throws Exception {
        Run run = run(8, concat(SETUP, "--pve-version", "8"));
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(rolePrivileges())
                .isEqualTo(readmePrivileges(8))
                .contains("VM.Monitor")
                .noneMatch(p -> p.startsWith("VM.GuestAgent."))
                .allMatch(Privileges.PVE8::contains);

        Files.delete(dir.resolve("state"));
        Run wrong = run(8, concat(SETUP, "--pve-version", "9"));
        assertThat(wrong.exit()).isEqualTo(1);
        assertThat(wrong.err()).contains("invalid privilege 'VM.GuestAgent.Audit'");
    }

    @Test
    void theVersionIsTakenFromPveversion() throws Exception {
        Path pveversion = Files.createDirectories(dir.resolve("bin")).resolve("pveversion");
        Files.writeString(
                pveversion, "#!/bin/sh\necho 'pve-manager/8.4.1/2a5fa54a8503f96d (running kernel: 6.8.12-9-pve)'\n");
        Files.setPosixFilePermissions(pveversion, PosixFilePermissions.fromString("rwxr-xr-x"));
        Run run = run(8, SETUP);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(rolePrivileges()).contains("VM.Monitor");
    }

    @Test
    void anExistingTokenWhoseSecretIsLostIsNamedNotReplaced() throws Exception {
        assertThat(run(9, SETUP_9).exit()).isZero();
        String secret = secret();
        Files.delete(dir.resolve("bigfleet-token.secret"));
        Run run = run(9, SETUP_9);
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err())
                .contains("token " + TOKEN + " exists but its secret is not in ./bigfleet-token.secret")
                .contains("pveum user token remove bigfleet@pve autoscaler");
        assertThat(secret()).isEqualTo(secret);
    }

    @Test
    void gpuMappingsGetMappingUseThroughTheBuiltInRoleOnEachMappingAlone() throws Exception {
        Run run = run(9, concat(SETUP_9, "--pci-mapping", "gpu-a100,gpu-l4"));
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(state("acl"))
                .contains(
                        "/mapping/pci/gpu-a100 PVEMappingUser token " + TOKEN + " 0",
                        "/mapping/pci/gpu-l4 PVEMappingUser token " + TOKEN + " 0");
        Run bad = run(9, concat(SETUP_9, "--pci-mapping", "9gpu"));
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.err()).contains("--pci-mapping: \"9gpu\" is not a mapping id");
    }

    @Test
    void seedStoragesGetARoleOfTheirOwnAndTheClonesTheirCdromPrivilege() throws Exception {
        Run run = run(9, concat(SETUP_9, "--seed-storage", "bigfleet-seeds"));
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(state("role"))
                .contains("BigFleetProviderSeeds\tDatastore.AllocateTemplate,Datastore.Audit,Datastore.Allocate")
                .anyMatch(r -> r.startsWith("BigFleetProvider\t") && r.contains("VM.Config.CDROM"));
        assertThat(state("acl"))
                .contains(
                        "/storage/bigfleet-seeds BigFleetProviderSeeds user bigfleet@pve 0",
                        "/storage/bigfleet-seeds BigFleetProviderSeeds token " + TOKEN + " 0");
        Run bad = run(9, concat(SETUP_9, "--seed-storage", "Seeds!"));
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.err()).contains("--seed-storage: \"Seeds!\" is not a storage id");
    }

    @Test
    void dryRunPrintsCommandsThatRunCleanlyAndChangesNothing() throws Exception {
        Run dry = run(9, concat(SETUP, "--dry-run", "--pve-version", "9"));
        assertThat(dry.exit()).as(dry.err()).isZero();
        assertThat(calls()).as("pveum calls during a dry run").isZero();
        assertThat(dir.resolve("bigfleet-token.secret")).doesNotExist();
        List<String> commands = dry.out().lines().toList();
        // the role on each path, and PVEAuditor on / alone (the HA manager's status)
        assertThat(commands).hasSize(5 + PATHS.size()).allMatch(l -> l.startsWith("pveum "));

        // the printed commands, run as printed, are all accepted
        Path script = dir.resolve("printed.sh");
        Files.writeString(script, "set -e\n" + dry.out());
        ProcessBuilder p = new ProcessBuilder("bash", script.toString())
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("printed.out").toFile());
        p.environment().put("PATH", dir.resolve("bin") + ":" + System.getenv("PATH"));
        Process running = p.start();
        assertThat(running.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(running.exitValue())
                .as(Files.readString(dir.resolve("printed.out")))
                .isZero();
        assertThat(rolePrivileges()).isEqualTo(readmePrivileges(9));
        assertThat(state("acl")).hasSize(2 * PATHS.size() + 2).contains("/ PVEAuditor token " + TOKEN + " 0");
    }

    @Test
    void badOptionsStopWithOneLine() throws Exception {
        for (String[] args : new String[][] {
            {"--bridge", "vmbr0", "--pve-version", "9"},
            {"--storage", "local-lvm", "--pve-version", "9"},
            {"--storage", "local-lvm", "--bridge", "vmbr0", "--pve-version", "7"},
            {"--storage", "local-lvm", "--bridge", "vmbr0", "--pve-version", "9", "--template", "nine"},
            {"--storage", "local-lvm", "--bridge", "vmbr0", "--pve-version", "9", "--user", "bigfleet"}
        }) {
            Run run = run(9, args);
            assertThat(run.exit()).as(String.join(" ", args)).isEqualTo(1);
            assertThat(run.err().lines()).as(run.err()).hasSize(1);
            assertThat(run.err()).startsWith("setup-token: ");
        }
        assertThat(calls()).isZero();
    }

    /** The privileges docs/proxmox/storage.md lists for the token. */
    static Set<String> readmePrivileges(int pveVersion) throws IOException {
        String readme = Files.readString(ROOT.resolve("docs/proxmox/storage.md"));
        Matcher paragraph = Pattern.compile("The token needs \\(PVE 9 names\\):(.*?)(?:\\n\\n|\\n?\\z)", Pattern.DOTALL)
                .matcher(readme);
        assertThat(paragraph.find())
                .as("docs/proxmox/storage.md says which privileges the token needs")
                .isTrue();
        String text = paragraph.group(1);
        int pve8 = text.indexOf("(PVE 8:");
        Set<String> pve9Names = names(text.substring(0, pve8) + text.substring(text.indexOf(')', pve8)));
        Set<String> pve8Only = names(text.substring(pve8, text.indexOf(')', pve8)));
        if (pveVersion == 9) {
            return pve9Names;
        }
        Set<String> out = new LinkedHashSet<>();
        pve9Names.stream().filter(p -> !p.startsWith("VM.GuestAgent.")).forEach(out::add);
        out.addAll(pve8Only);
        return out;
    }

    private static Set<String> names(String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = Pattern.compile("`([A-Z][A-Za-z]*(?:\\.[A-Za-z]+)+)`").matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
