package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Flag parsing of the stand-alone simulator. */
class CliTest {

    private static SimulatorConfig parse(String... args) {
        PveSimulatorMain main = new PveSimulatorMain();
        new CommandLine(main).parseArgs(args);
        return main.config();
    }

    @Test
    void documentedFlagsBuildTheConfig() {
        SimulatorConfig c = parse(
                "--addr",
                "127.0.0.1:8006",
                "--nodes",
                "pve1,pve2",
                "--template-vmid",
                "9000",
                "--token",
                "bigfleet@pve!autoscaler=SECRET",
                "--tls-dir",
                "/tmp/x",
                "--latency",
                "2s");
        assertThat(c.host()).isEqualTo("127.0.0.1");
        assertThat(c.port()).isEqualTo(8006);
        assertThat(c.nodes()).extracting(NodeSpec::name).containsExactly("pve1", "pve2");
        assertThat(c.templates()).extracting(TemplateSpec::vmid).containsExactly(9000);
        assertThat(c.templates().get(0).node()).isEqualTo("pve1");
        assertThat(c.token().tokenId()).isEqualTo("bigfleet@pve!autoscaler");
        assertThat(c.token().secret()).isEqualTo("SECRET");
        assertThat(c.latency()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.pools()).containsExactly("bigfleet");
    }

    @Test
    void badFlagsExitNonZero() {
        assertThat(PveSimulatorMain.run("--bogus")).isEqualTo(2);
        assertThat(PveSimulatorMain.run("--tls-dir", "/tmp/x"))
                .as("token missing")
                .isEqualTo(2);
        assertThat(PveSimulatorMain.run(
                        "--token", "bigfleet@pve!autoscaler=S", "--tls-dir", "/tmp/x", "--latency", "2 seconds"))
                .isEqualTo(1);
        assertThat(PveSimulatorMain.run("--token", "no-secret", "--tls-dir", "/tmp/x"))
                .isEqualTo(1);
    }

    @Test
    void tokenSecretNeverShowsInToString() {
        assertThat(ApiToken.parse("a@pve!t=topsecret").toString()).doesNotContain("topsecret");
    }
}
