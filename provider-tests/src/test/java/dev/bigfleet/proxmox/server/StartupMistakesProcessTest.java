package dev.bigfleet.proxmox.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.ProviderProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every configuration mistake an operator is likely to make, as the provider process reports it:
 * one line on stderr naming what is wrong, the exit code, nothing on stdout, and never the value of
 * a secret, wherever it was typed.
 */
@Tag("process")
class StartupMistakesProcessTest {
    private static final String SECRET = "5ec7e7aa-70ce-4e11-b1ab-c0ffee000001";
    private static final String OTHER_SECRET = "0dd5ec7e-70ce-4e11-b1ab-c0ffee000002";
    private static final List<String> PROXMOX = List.of(
            "--proxmox-backend",
            "proxmox",
            "--proxmox-api-url",
            "https://127.0.0.1:9/api2/json",
            "--nodes",
            "pve1",
            "--metrics-addr",
            "",
            "--addr",
            "127.0.0.1:0");

    @TempDir
    Path dir;

    /** How one start ended. */
    private record Ended(int exit, String stdout, List<String> stderr) {
        String line() {
            assertThat(stderr).as("stderr").hasSize(1);
            return stderr.get(0);
        }
    }

    private static Ended run(List<String> args) throws Exception {
        try (ProviderProcess p = ProviderProcess.start(Launch.OWN_JVM, args)) {
            int exit = p.awaitExit(Duration.ofSeconds(90));
            List<String> lines = p.log().stream().filter(l -> !l.isBlank()).toList();
            Ended ended = new Ended(exit, p.stdout(), lines);
            for (String secret : List.of(SECRET, OTHER_SECRET, SECRET.substring(0, 8), OTHER_SECRET.substring(0, 8))) {
                assertThat(ended.stdout()).as("stdout").doesNotContain(secret);
                assertThat(String.join("\n", ended.stderr())).as("stderr").doesNotContain(secret);
            }
            return ended;
        }
    }

    private static List<String> proxmox(String... more) {
        List<String> args = new ArrayList<>(PROXMOX);
        args.addAll(List.of(more));
        return args;
    }

    private static List<String> fake(String... more) {
        List<String> args =
                new ArrayList<>(List.of("--use-fake-backend", "--metrics-addr", "", "--addr", "127.0.0.1:0"));
        args.addAll(List.of(more));
        return args;
    }

    private Path file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    @Test
    void aTokenIdWithTheSecretPastedInSaysWhereTheSecretBelongsWithoutPrintingIt() throws Exception {
        Ended alone = run(proxmox("--proxmox-token-id", "bigfleet@pve!autoscaler=" + SECRET));
        assertThat(alone.exit()).isEqualTo(1);
        assertThat(alone.line())
                .isEqualTo("error: --proxmox-token-id: the token secret was pasted into the id (the part after"
                        + " \"=\"); give only USER@REALM!TOKENID here; the secret belongs in --proxmox-token-file"
                        + " (a file holding only it) or --proxmox-token-secret");

        Ended withSecret = run(proxmox(
                "--proxmox-token-id", "bigfleet@pve!autoscaler=" + SECRET, "--proxmox-token-secret", OTHER_SECRET));
        assertThat(withSecret.exit()).isEqualTo(1);
        assertThat(withSecret.line())
                .startsWith("error: --proxmox-token-id: the token secret was pasted into the id")
                .endsWith(
                        "or --proxmox-token-secret, which is set too: drop the \"=\" and what follows it from the id");

        Ended asOption = run(proxmox("--backend-opt", "token-id=bigfleet@pve!autoscaler=" + SECRET));
        assertThat(asOption.exit()).isEqualTo(1);
        assertThat(asOption.line()).startsWith("error: ").contains("the token secret was pasted into the id");
    }

    @Test
    void aSecretInTheWrongPlaceIsRefusedWithoutPrintingIt() throws Exception {
        Ended asId = run(proxmox("--proxmox-token-id", SECRET, "--proxmox-token-secret", OTHER_SECRET));
        assertThat(asId.exit()).isEqualTo(1);
        assertThat(asId.line()).startsWith("error: --proxmox-token-id: has neither \"@\" nor \"!\"");

        List<String> inUrl = proxmox("--proxmox-token-id", "bigfleet@pve!autoscaler");
        inUrl.set(inUrl.indexOf("https://127.0.0.1:9/api2/json"), "https://root:" + SECRET + "@127.0.0.1:9");
        Ended url = run(inUrl);
        assertThat(url.exit()).isEqualTo(1);
        assertThat(url.line()).startsWith("error: --proxmox-api-url: \"https://<credentials>@127.0.0.1:9\"");
    }

    @Test
    void aWholeTokenGivenAsTheSecretIsRefusedWithoutPrintingIt() throws Exception {
        Path token = file("token", "bigfleet@pve!autoscaler=" + SECRET + "\n");
        Ended inFile =
                run(proxmox("--proxmox-token-id", "bigfleet@pve!autoscaler", "--proxmox-token-file", token.toString()));
        assertThat(inFile.exit()).isEqualTo(1);
        assertThat(inFile.line())
                .isEqualTo("error: --proxmox-token-file " + token + ": holds \"=\", so it looks like a whole token"
                        + " (USER@REALM!TOKENID=SECRET); give only the SECRET, the part after the last \"=\"");

        Ended inline =
                run(proxmox("--proxmox-token-id", "bigfleet@pve!autoscaler", "--proxmox-token-secret", "x=" + SECRET));
        assertThat(inline.exit()).isEqualTo(1);
        assertThat(inline.line()).startsWith("error: --proxmox-token-secret: holds \"=\"");
    }

    @Test
    void aMistypedSecretFlagOrOptionNeverEchoesItsValue() throws Exception {
        Ended spaced = run(proxmox("--proxmox-token-id", "bigfleet@pve!autoscaler", "--proxmox-token-secrt", SECRET));
        assertThat(spaced.exit()).isEqualTo(2);
        assertThat(spaced.line()).contains("--proxmox-token-secrt").contains("--proxmox-token-secret");

        Ended joined = run(proxmox("--proxmox-token-id", "bigfleet@pve!autoscaler", "--proxmox-token-secrt=" + SECRET));
        assertThat(joined.exit()).isEqualTo(2);
        assertThat(joined.line()).contains("--proxmox-token-secrt");

        Ended option =
                run(proxmox("--proxmox-token-id", "bigfleet@pve!autoscaler", "--backend-opt", "token-secrt=" + SECRET));
        assertThat(option.exit()).isNotZero();
        assertThat(option.line()).contains("token-secrt").contains("token-secret");

        Path config = file("backend.json", "{\"token-secrt\": \"" + SECRET + "\"}");
        Ended inConfig =
                run(proxmox("--proxmox-token-id", "bigfleet@pve!autoscaler", "--backend-config", config.toString()));
        assertThat(inConfig.exit()).isNotZero();
        assertThat(inConfig.line()).contains("token-secrt").contains("token-secret");
    }

    @Test
    void mistypedOfferingKeysNameTheFileTheEntryAndTheNearestKey() throws Exception {
        Path lables = file(
                "lables.json",
                "[{\"instance_type\": \"pve.large\", \"zone\": \"pve-a\", \"count\": 2, \"lables\": {\"team\": \"a\"}}]");
        Ended a = run(fake("--offerings", lables.toString()));
        assertThat(a.exit()).isEqualTo(1);
        assertThat(a.line())
                .isEqualTo("error: --offerings " + lables + ": $[0].lables: unknown key \"lables\" (did you mean"
                        + " \"labels\"?)");

        Path spot = file(
                "spot.json",
                "[{\"instance_type\": \"pve.large\", \"zone\": \"pve-a\", \"count\": 2, \"capacity-type\": \"spot\"}]");
        Ended b = run(fake("--offerings", spot.toString()));
        assertThat(b.exit()).isEqualTo(1);
        assertThat(b.line())
                .isEqualTo("error: --offerings " + spot
                        + ": $[0][\"capacity-type\"]: unknown key \"capacity-type\" (did you mean"
                        + " \"capacity_type\"?)");

        Path cout = file("cout.json", "[{\"instance_type\": \"pve.large\", \"zone\": \"pve-a\", \"cout\": 8}]");
        Ended c = run(fake("--offerings", cout.toString()));
        assertThat(c.exit()).isEqualTo(1);
        assertThat(c.line())
                .isEqualTo("error: --offerings " + cout + ": $[0].cout: unknown key \"cout\" (did you mean"
                        + " \"count\"?)");
    }

    @Test
    void aMistypedCatalogKeyNamesTheTypeAndTheNearestKey() throws Exception {
        Path catalog =
                file("types.json", "{\"pve.small\": {\"vcpu\": 2, \"memory_mib\": 4096, \"templat_vmid\": 9001}}");
        Ended e = run(fake("--instance-types", catalog.toString()));
        assertThat(e.exit()).isEqualTo(1);
        assertThat(e.line())
                .isEqualTo("error: --instance-types " + catalog
                        + ": $[\"pve.small\"].templat_vmid: unknown key \"templat_vmid\""
                        + " (did you mean \"template_vmid\"?)");
    }

    @Test
    void aMistypedFlagSuggestsTheNearestOne() throws Exception {
        Ended e = run(fake("--seed-cout", "5"));
        assertThat(e.exit()).isEqualTo(2);
        assertThat(e.line()).isEqualTo("error: unknown flag --seed-cout (did you mean --seed-count?) (see --help)");
    }

    @Test
    void aFileBreakingItsSchemaStopsStartupWithOneLineNamingTheKeysJsonPath() throws Exception {
        Path offerings =
                file("offerings.json", "[{\"instance_type\": \"pve.large\", \"zone\": \"pve-a\", \"count\": \"8\"}]");
        Ended type = run(fake("--offerings", offerings.toString()));
        assertThat(type.exit()).isEqualTo(1);
        assertThat(type.line())
                .isEqualTo("error: --offerings " + offerings + ": $[0].count: must be a whole number, not a string");

        Path catalog = file("types.json", "{\"pve.small\": {\"vcpu\": 2, \"template_vmid\": 9000}}");
        Ended required = run(fake("--instance-types", catalog.toString()));
        assertThat(required.exit()).isEqualTo(1);
        assertThat(required.line())
                .isEqualTo("error: --instance-types " + catalog + ": $[\"pve.small\"].memory_mib: is required");

        Path config = file("backend.json", "{\"token-secret\": \"" + SECRET + "\", \"pool\": true}");
        Ended secret =
                run(proxmox("--proxmox-token-id", "bigfleet@pve!autoscaler", "--backend-config", config.toString()));
        assertThat(secret.exit()).isEqualTo(1);
        assertThat(secret.line())
                .isEqualTo(
                        "error: --backend-config " + config + ": $.pool: must be a string or a number, not a boolean");
    }

    @Test
    void aJsonSyntaxErrorNamesTheFileLineAndColumn() throws Exception {
        Path broken = file("broken.json", "[{\"instance_type\": \"pve.large\",\n \"zone\": \"pve-a\" \"count\": 2}]");
        Ended e = run(fake("--offerings", broken.toString()));
        assertThat(e.exit()).isEqualTo(1);
        assertThat(e.line())
                .matches("error: --offerings \\Q" + broken + "\\E: invalid JSON at line 2, column \\d+: .*");
        assertThat(e.line()).doesNotContain("com.fasterxml").doesNotContain("Exception");
    }
}
