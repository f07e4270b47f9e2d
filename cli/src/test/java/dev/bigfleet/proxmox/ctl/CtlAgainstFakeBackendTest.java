package dev.bigfleet.proxmox.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.testing.TestingProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bigfleetctl over a real loopback socket against the provider on its fake backend, plaintext. */
class CtlAgainstFakeBackendTest {
    private static final String A = "proxmox/OnDemand/pve.large/pve-a/000";
    private static final String B = "proxmox/OnDemand/pve.large/pve-a/001";
    private static final String C = "proxmox/OnDemand/pve.large/pve-a/002";
    private static final String D = "proxmox/OnDemand/pve.large/pve-a/003";
    private static final String SECRET = "s3cr3t-join-token-4c1b";

    @TempDir
    static Path dir;

    private static TestingProvider provider;
    private static Ctl ctl;
    private static Path blob;

    @BeforeAll
    static void start() throws Exception {
        provider = TestingProvider.builder()
                .noHttp()
                .seedCount(16)
                .fakeLatency(Duration.ofMillis(20))
                .build();
        ctl = new Ctl("--addr", "127.0.0.1:" + provider.grpcPort());
        blob = dir.resolve("blob");
        Files.writeString(blob, SECRET, StandardCharsets.UTF_8);
    }

    @AfterAll
    static void stop() {
        provider.close();
    }

    @Test
    void drivesAMachineThroughCreateConfigureDrainAndDelete() {
        Lifecycle.drive(ctl, A, blob, Duration.ofSeconds(20));
    }

    @Test
    void listsAsATableFiltersByStateAndFollowsACursor() {
        Ctl.Result all = ctl.run("list");
        assertThat(all.exit()).as(all.err()).isZero();
        assertThat(all.lines().get(0)).matches("ID +STATE +TYPE +ZONE +HOST +CLUSTER +PRICE/H +LAST ERROR");
        assertThat(all.out()).containsPattern(Pattern.quote(B) + " +SPECULATIVE +pve\\.large +pve-a +0\\.0368");
        Matcher trailer = Pattern.compile("(?m)^16 machines; cursor (\\S+)$").matcher(all.out());
        assertThat(trailer.find()).as(all.out()).isTrue();
        String cursor = trailer.group(1);

        assertThat(ctl.run("create", B).exit()).isZero();
        Lifecycle.awaitState(ctl, B, "IDLE", Duration.ofSeconds(20));
        Ctl.Result idle = ctl.run("list", "--state", "idle,configured");
        assertThat(idle.out()).contains(B).doesNotContain(C);

        Ctl.Result changed = ctl.run("list", "--since", cursor);
        assertThat(changed.exit()).as(changed.err()).isZero();
        assertThat(changed.out()).contains(B).doesNotContain(C);
        assertThat(changed.lines().get(1)).contains(B).contains("IDLE");
        assertThat(ctl.run("list", "--max-results", "2").out()).contains("2 machines; cursor");
    }

    @Test
    void jsonOutputCarriesTheProtoFieldNamesAndTheCursor() {
        Ctl.Result get = ctl.run("get", C, "--output", "json");
        assertThat(get.exit()).as(get.err()).isZero();
        assertThat(get.out())
                .contains("\"id\": \"" + C + "\"")
                .contains("\"state\": \"MACHINE_STATE_SPECULATIVE\"")
                .contains("\"instance_type\": \"pve.large\"")
                .contains("\"last_error\": \"\"");
        Ctl.Result list = ctl.run("-o", "json", "list", "--state", "SPECULATIVE", "--max-results", "1");
        Matcher revision = Pattern.compile("\"revision\": \"([^\"]+)\"").matcher(list.out());
        assertThat(revision.find()).as(list.out()).isTrue();
        assertThat(ctl.run("list", "--since", revision.group(1)).exit()).isZero();
    }

    @Test
    void aFailedCallIsOneLineWithItsCodeAndANonZeroExit() {
        Ctl.Result missing = ctl.run("get", "proxmox/OnDemand/pve.large/pve-a/999");
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.out()).isEmpty();
        assertThat(missing.err()).startsWith("error: NOT_FOUND: ").endsWith("\n");
        assertThat(missing.err().lines()).hasSize(1);

        Ctl.Result wrongState = ctl.run("drain", C);
        assertThat(wrongState.exit()).isEqualTo(1);
        assertThat(wrongState.err()).startsWith("error: ABORTED: ");
    }

    @Test
    void theFenceTokenIsSentAndAStaleOneIsRefused() {
        Ctl.Result fresh = ctl.run("create", D, "--shard-id", "shard-1", "--epoch", "2", "--seq", "10");
        assertThat(fresh.exit()).as(fresh.err()).isZero();
        Ctl.Result stale = ctl.run("delete", D, "--shard-id", "shard-1", "--epoch", "2", "--seq", "9");
        assertThat(stale.exit()).isEqualTo(1);
        assertThat(stale.err()).startsWith("error: FAILED_PRECONDITION: ");
    }

    @Test
    void theBlobComesFromAFileAndIsNeverPrinted() {
        Ctl.Result result =
                ctl.run("configure", A, "--cluster-id", "prod-1", "--blob-file", blob.toString(), "-o", "json");
        String encoded = Base64.getEncoder().encodeToString(SECRET.getBytes(StandardCharsets.UTF_8));
        assertThat(result.out() + result.err()).doesNotContain(SECRET).doesNotContain(encoded);
        Ctl.Result inline = ctl.run("configure", A, "--cluster-id", "prod-1", "--blob", SECRET);
        assertThat(inline.exit()).isEqualTo(2);
        assertThat(inline.err())
                .isEqualTo("error: unknown option --blob (see --help)\n")
                .doesNotContain(SECRET);
        Ctl.Result absent = ctl.run("configure", A, "--cluster-id", "prod-1", "--blob-file", "/nonexistent/blob");
        assertThat(absent.exit()).isEqualTo(1);
        assertThat(absent.err()).isEqualTo("error: --blob-file: /nonexistent/blob does not exist\n");
    }

    @Test
    void malformedCommandLinesExitWithTwoAndOneLine() {
        for (String[] args : new String[][] {
            {"create", A, "--epoch", "1"},
            {"list", "--state", "bogus"},
            {"configure", A},
            {"drain", A, "--grace", "soon"},
            {"list", "--since", "not base64!"},
            {"explode"},
            {}
        }) {
            Ctl.Result r = ctl.run(args);
            assertThat(r.exit()).as("%s: %s", String.join(" ", args), r.err()).isEqualTo(2);
            assertThat(r.err().lines()).as(r.err()).hasSize(1);
            assertThat(r.err()).startsWith("error: ").endsWith("(see --help)\n");
        }
    }

    @Test
    void anUnreachableProviderIsUnavailable() {
        Ctl.Result r = Ctl.runExactly("get", A, "--addr", "127.0.0.1:1", "--timeout", "5s");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).startsWith("error: UNAVAILABLE");
        assertThat(r.err().lines()).hasSize(1);
    }

    @Test
    void helpAndVersion() {
        Ctl.Result help = Ctl.runExactly("--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out())
                .startsWith("Usage: bigfleetctl")
                .contains("list", "get", "create", "configure", "drain", "delete");
        Ctl.Result configureHelp = Ctl.runExactly("configure", "--help");
        assertThat(configureHelp.out()).contains("--blob-file", "--cluster-id", "--metadata", "--shard-id", "--addr");
        assertThat(Ctl.runExactly("--version").out()).startsWith("bigfleetctl ");
    }
}
