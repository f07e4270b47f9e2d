package dev.bigfleet.proxmox.backend.proxmox.seed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NoCloudSeedTest {
    private static final Instant T = Instant.parse("2025-01-02T03:04:05Z");
    /** Not UTF-8, with a NUL and a CR: user-data is bytes, never text. */
    private static final byte[] BLOB = {'#', '!', 0, (byte) 0xFF, (byte) 0xC3, '\r', '\n'};

    @Test
    void metaDataHoldsTheInstanceIdAndHostNameQuoted() {
        NoCloudSeed seed = new NoCloudSeed("vm-101-abc", "node-1", BLOB, Optional.empty());
        assertThat(seed.metaData()).isEqualTo("instance-id: \"vm-101-abc\"\nlocal-hostname: \"node-1\"\n");
    }

    @Test
    void aValueCannotAddAKeyToMetaData() {
        NoCloudSeed seed = new NoCloudSeed("i\"\nlocal-hostname: evil\n#", "h\\\"", BLOB, Optional.empty());
        assertThat(seed.metaData())
                .isEqualTo("instance-id: \"i\\\"\\x0Alocal-hostname: evil\\x0A#\"\nlocal-hostname: \"h\\\\\\\"\"\n")
                .hasLineCount(2);
    }

    @Test
    void theFilesAreMetaDataNetworkConfigAndTheUserDataVerbatim() {
        NoCloudSeed seed = new NoCloudSeed("i", "h", BLOB, Optional.of("version: 2\n"));
        assertThat(seed.files()).extracting(IsoFile::name).containsExactly("meta-data", "network-config", "user-data");
        assertThat(seed.files().get(0).content()).isEqualTo(seed.metaData().getBytes(StandardCharsets.UTF_8));
        assertThat(seed.files().get(1).content()).isEqualTo("version: 2\n".getBytes(StandardCharsets.UTF_8));
        assertThat(seed.files().get(2).content()).isEqualTo(BLOB);
        assertThat(new NoCloudSeed("i", "h", BLOB, Optional.empty()).files())
                .extracting(IsoFile::name)
                .containsExactly("meta-data", "user-data");
    }

    @Test
    void theImageIsLabelledCidataAndHoldsTheFilesByTheirExactNames() {
        NoCloudSeed seed = new NoCloudSeed("i", "h", BLOB, Optional.of("version: 2\n"));
        IsoReader image = IsoReader.of(seed.image(T).toByteArray());
        assertThat(image.volumeId()).isEqualTo("cidata");
        assertThat(image.jolietVolumeId()).isEqualTo("cidata");
        Map<String, byte[]> files = image.jolietFiles();
        assertThat(files).containsOnlyKeys("meta-data", "network-config", "user-data");
        assertThat(files.get("user-data")).isEqualTo(BLOB);
        assertThat(new String(files.get("meta-data"), StandardCharsets.UTF_8)).isEqualTo(seed.metaData());
    }

    @Test
    void theSameSeedAndTimeGiveTheSameImage() {
        byte[] one = new NoCloudSeed("i", "h", BLOB, Optional.empty()).image(T).toByteArray();
        byte[] two = new NoCloudSeed("i", "h", BLOB.clone(), Optional.empty())
                .image(T)
                .toByteArray();
        byte[] later = new NoCloudSeed("i", "h", BLOB, Optional.empty())
                .image(T.plusSeconds(1))
                .toByteArray();
        assertThat(two).isEqualTo(one);
        assertThat(later).isNotEqualTo(one);
    }

    @Test
    void theSeedKeepsItsOwnCopyOfTheUserData() {
        byte[] blob = BLOB.clone();
        NoCloudSeed seed = new NoCloudSeed("i", "h", blob, Optional.empty());
        blob[0] = 'X';
        seed.userData()[1] = 'X';
        assertThat(seed.userData()).isEqualTo(BLOB);
    }

    @Test
    void itsTextNeverShowsTheUserData() {
        byte[] secret = "kubeadm join --token abcdef.0123456789abcdef".getBytes(StandardCharsets.UTF_8);
        NoCloudSeed seed = new NoCloudSeed("i", "h", secret, Optional.of("version: 2\n"));
        assertThat(seed.toString())
                .isEqualTo("NoCloud seed (instance-id \"i\", local-hostname \"h\", user-data 44 bytes, network-config)")
                .doesNotContain("abcdef");
        assertThat(seed.image(T).toString()).doesNotContain("abcdef").contains("user-data (44 bytes)");
    }

    @Test
    void anEmptyOrNonUnicodeInstanceIdOrHostNameIsRefused() {
        assertThatThrownBy(() -> new NoCloudSeed("", "h", BLOB, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("instance-id");
        assertThatThrownBy(() -> new NoCloudSeed("i", "", BLOB, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("local-hostname");
        assertThatThrownBy(() -> new NoCloudSeed("i", "h\uD800", BLOB, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
