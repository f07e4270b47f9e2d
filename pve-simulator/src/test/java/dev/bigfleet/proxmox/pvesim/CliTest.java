package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
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
        assertThat(c.templates()).noneMatch(TemplateSpec::execBlocked);
        assertThat(parse("--token", "a@pve!b=c", "--tls-dir", "/tmp/x", "--template-exec-blocked")
                        .templates())
                .allMatch(TemplateSpec::execBlocked);
    }

    @Test
    void pciMappingFlagsServeAGpuTypeWithoutJava() {
        SimulatorConfig c = parse(
                "--nodes",
                "pve1,pve2",
                "--token",
                "bigfleet@pve!autoscaler=SECRET",
                "--tls-dir",
                "/tmp/x",
                "--pci-mapping",
                "gpu-a100=pve1:2,pve2:1",
                "--pci-mapping",
                "gpu-l4=pve2:4");
        assertThat(c.pciMappings())
                .isEqualTo(Map.of("gpu-a100", Map.of("pve1", 2, "pve2", 1), "gpu-l4", Map.of("pve2", 4)));
        assertThat(parse("--token", "a@pve!b=c", "--tls-dir", "/tmp/x").pciMappings())
                .isEmpty();
        assertThatThrownBy(() -> parse("--token", "a@pve!b=c", "--tls-dir", "/tmp/x", "--pci-mapping", "gpu=pve1"))
                .hasMessage("--pci-mapping: pve1 in gpu=pve1 is not NODE:COUNT with a COUNT from 1 to 999 (e.g."
                        + " pve1:2)");
        assertThatThrownBy(() -> parse("--token", "a@pve!b=c", "--tls-dir", "/tmp/x", "--pci-mapping", "pve1:2"))
                .hasMessageStartingWith("--pci-mapping: pve1:2 is not ID=NODE:COUNT");
    }

    @Test
    void vnetFlagsAddSdnVnetsInTheirZones() {
        SimulatorConfig c = parse(
                "--token",
                "bigfleet@pve!autoscaler=SECRET",
                "--tls-dir",
                "/tmp/x",
                "--vnet",
                "tenant1=evpn1:10001",
                "--vnet",
                "lab=simple1");
        assertThat(c.vnets())
                .containsExactly(VnetSpec.of("tenant1", "evpn1").withTag(10001), VnetSpec.of("lab", "simple1"));
        assertThat(parse("--token", "a@pve!b=c", "--tls-dir", "/tmp/x").vnets()).isEmpty();
        assertThatThrownBy(() -> parse("--token", "a@pve!b=c", "--tls-dir", "/tmp/x", "--vnet", "tenant1"))
                .hasMessage("--vnet: tenant1 is not NAME=ZONE[:TAG] (e.g. vnet1=zone1:100)");
        assertThatThrownBy(() -> parse("--token", "a@pve!b=c", "--tls-dir", "/tmp/x", "--vnet", "tenant-one=evpn1"))
                .hasMessage("--vnet: invalid VNet ID 'tenant-one': 2 to 8 letters and digits, starting with a letter");
        assertThatThrownBy(() ->
                        parse("--token", "a@pve!b=c", "--tls-dir", "/tmp/x", "--vnet", "ab=z1", "--vnet", "ab=z2"))
                .hasMessage("VNet ab given twice");
    }

    @Test
    void storageFlagsChooseTheLayout() {
        SimulatorConfig c = parse(
                "--nodes",
                "pve1,pve2,pve3",
                "--token",
                "bigfleet@pve!autoscaler=SECRET",
                "--tls-dir",
                "/tmp/x",
                "--shared-storage",
                "none",
                "--templates-per-node",
                "--template-vmid",
                "9100",
                "--template-tags",
                "bigfleet-template",
                "--local-lvm-gib",
                "64",
                "--node-bridges",
                "vmbr0,vmbr1");
        assertThat(c.storages()).extracting(StorageSpec::id).containsExactly("local", "local-lvm");
        assertThat(c.storages().get(1).capacityBytes()).isEqualTo(64L << 30);
        assertThat(c.templates())
                .extracting(t -> t.vmid() + "@" + t.node() + ":" + t.storage() + ":" + t.tags())
                .containsExactly(
                        "9100@pve1:local-lvm:bigfleet-template",
                        "9101@pve2:local-lvm:bigfleet-template",
                        "9102@pve3:local-lvm:bigfleet-template");
        assertThat(c.nodes().get(2).bridges()).containsExactly("vmbr0", "vmbr1");

        SimulatorConfig nfs =
                parse("--token", "bigfleet@pve!autoscaler=SECRET", "--tls-dir", "/tmp/x", "--shared-storage", "nfs");
        assertThat(nfs.storages())
                .extracting(s -> s.id() + "/" + s.type().pluginType() + "/" + s.shared())
                .containsExactly("local/dir/false", "local-lvm/lvmthin/false", "nfs-vm/nfs/true");
        assertThat(nfs.templates().get(0).storage()).isEqualTo("nfs-vm");
        assertThat(PveSimulatorMain.run(
                        "--token", "bigfleet@pve!autoscaler=S", "--tls-dir", "/tmp/x", "--shared-storage", "zfs"))
                .isEqualTo(1);
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
