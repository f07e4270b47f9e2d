package dev.bigfleet.proxmox.backend.proxmox.seed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's cloud-init (22.4) reads the seed: the image is extracted with xorriso into a NoCloud
 * seed directory, and cloud-init's own NoCloud datasource reads it there, as it reads the
 * directory it mounts a {@code cidata} device on (a container cannot loop-mount ISO 9660, so
 * this is as near as a test gets to the guest).
 */
class CloudInitReadsSeedTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** What cloud-init's NoCloud datasource read from the image's files. */
    private JsonNode readByCloudInit(NoCloudSeed seed) throws Exception {
        return CloudInitReader.read(seed, dir);
    }

    @Test
    void theNoCloudDatasourceReadsMetaDataUserDataAndNetworkConfig() throws Exception {
        byte[] userData = IsoImageTest.random(300_000, 5);
        NoCloudSeed seed = new NoCloudSeed(
                "vm-101-4f1c", "node-1", userData, Optional.of("version: 2\nethernets:\n  eth0:\n    dhcp4: true\n"));
        JsonNode read = readByCloudInit(seed);
        assertThat(read.get("found").asBoolean())
                .as("cloud-init claims the seed: %s", read)
                .isTrue();
        assertThat(read.get("dsname").asText()).isEqualTo("NoCloud");
        assertThat(read.get("seed").asText()).endsWith("/seed/nocloud");
        assertThat(read.get("instance_id").asText()).isEqualTo("vm-101-4f1c");
        assertThat(read.get("metadata").get("instance-id").asText()).isEqualTo("vm-101-4f1c");
        assertThat(read.get("metadata").get("local-hostname").asText()).isEqualTo("node-1");
        assertThat(Base64.getDecoder().decode(read.get("userdata").asText())).isEqualTo(userData);
        assertThat(read.get("network_config"))
                .isEqualTo(JSON.readTree("{\"version\": 2, \"ethernets\": {\"eth0\": {\"dhcp4\": true}}}"));
    }

    @Test
    void aHostileInstanceIdOrHostNameIsReadAsItIsAndAddsNoKey() throws Exception {
        String instanceId = "i-1\"\nlocal-hostname: evil\ndsmode: disabled\n# \\";
        String hostname = "h'{[\t\u00e9\u2028😀";
        JsonNode read = readByCloudInit(new NoCloudSeed(instanceId, hostname, new byte[0], Optional.empty()));
        assertThat(read.get("found").asBoolean())
                .as("cloud-init claims the seed: %s", read)
                .isTrue();
        assertThat(read.get("metadata").get("instance-id").asText()).isEqualTo(instanceId);
        assertThat(read.get("metadata").get("local-hostname").asText()).isEqualTo(hostname);
        assertThat(read.get("userdata").asText()).isEmpty();
        assertThat(read.get("network_config").isNull()).isTrue();
    }
}
