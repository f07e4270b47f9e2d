package dev.bigfleet.proxmox.backend.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.backend.proxmox.client.TagList;
import dev.bigfleet.proxmox.backend.proxmox.client.VmConfig;
import dev.bigfleet.proxmox.backend.proxmox.seed.CloudInitReader;
import dev.bigfleet.proxmox.backend.proxmox.seed.NoCloudSeed;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's {@code network-config} for a VM with a static address, as Debian's cloud-init reads
 * it: the addressed NIC matched by its MAC with its address, default route and DNS servers, the
 * other NIC on DHCP.
 */
class NetworkConfigTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void cloudInitReadsTheStaticAddressTheRouteAndTheDnsServersAndLeavesTheOtherNicOnDhcp() throws Exception {
        VmConfig config = new VmConfig(
                Optional.of("vm"),
                Optional.empty(),
                TagList.of(),
                2,
                2048,
                true,
                false,
                Optional.empty(),
                Map.of(
                        "net0", "virtio=BC:24:11:00:00:10,bridge=vmbr0",
                        "net1", "virtio=BC:24:11:00:00:11,bridge=vmbr1,tag=20"));
        StaticAddress address = new StaticAddress(
                "net1", "10.20.0.12", 24, Optional.of("10.20.0.1"), List.of("10.20.0.2", "10.20.0.3"));
        String text = NetworkConfig.render(List.of(address), config).orElseThrow();

        JsonNode read = CloudInitReader.read(new NoCloudSeed("i-1", "node-1", new byte[0], Optional.of(text)), dir);
        assertThat(read.get("network_config"))
                .isEqualTo(JSON.readTree("{\"version\": 2, \"ethernets\": {"
                        + "\"net0\": {\"match\": {\"macaddress\": \"bc:24:11:00:00:10\"}, \"dhcp4\": true},"
                        + "\"net1\": {\"match\": {\"macaddress\": \"bc:24:11:00:00:11\"},"
                        + " \"addresses\": [\"10.20.0.12/24\"],"
                        + " \"routes\": [{\"to\": \"0.0.0.0/0\", \"via\": \"10.20.0.1\"}],"
                        + " \"nameservers\": {\"addresses\": [\"10.20.0.2\", \"10.20.0.3\"]}}}}"));
    }

    @Test
    void aVmWithoutStaticAddressesGetsNoNetworkConfig() {
        VmConfig config = new VmConfig(
                Optional.empty(), Optional.empty(), TagList.of(), 1, 512, true, false, Optional.empty(), Map.of());
        assertThat(NetworkConfig.render(List.of(), config)).isEmpty();
    }
}
