package dev.bigfleet.proxmox.backend.proxmox.seed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The layout, read back with {@link IsoReader}; {@code IsoReadersTest} reads the same with Debian's tools. */
class IsoImageTest {
    private static final Instant T = Instant.parse("2025-01-02T03:04:05.67Z");
    private static final int SECTOR = 2048;

    static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    @Test
    void theDescriptorsArePrimaryJolietAndTheTerminatorFromSector16() {
        byte[] image =
                IsoImage.of("cidata", T, List.of(IsoFile.of("a", new byte[1]))).toByteArray();
        assertThat(image[16 * SECTOR]).isEqualTo((byte) 1);
        assertThat(image[17 * SECTOR]).isEqualTo((byte) 2);
        assertThat(new String(image, 17 * SECTOR + 88, 3, StandardCharsets.US_ASCII))
                .isEqualTo("%/E");
        assertThat(image[18 * SECTOR]).isEqualTo((byte) 255);
        for (int sector = 16; sector <= 18; sector++) {
            assertThat(new String(image, sector * SECTOR + 1, 5, StandardCharsets.US_ASCII))
                    .isEqualTo("CD001");
        }
        // 8.4.26, 8.4.27: the creation and modification times are the time given, in UTC
        assertThat(new String(image, 16 * SECTOR + 813, 16, StandardCharsets.US_ASCII))
                .isEqualTo("2025010203040567");
        assertThat(new String(image, 16 * SECTOR + 830, 16, StandardCharsets.US_ASCII))
                .isEqualTo("2025010203040567");
    }

    @Test
    void eachFileStartsOnASectorAndTakesOnlyTheSectorsItNeeds() {
        byte[] small = random(53, 1);
        byte[] large = random(2 * SECTOR + 1, 2);
        IsoImage iso = IsoImage.of(
                "cidata",
                T,
                List.of(IsoFile.of("small", small), IsoFile.of("empty", new byte[0]), IsoFile.of("large", large)));
        byte[] image = iso.toByteArray();
        // 16 system area, 3 descriptors, 4 path tables, 2 root directories, 1 + 0 + 3 data sectors
        assertThat(image).hasSize((25 + 1 + 3) * SECTOR);
        assertThat(iso.size()).isEqualTo(image.length);
        assertThat(java.util.Arrays.copyOfRange(image, 25 * SECTOR, 25 * SECTOR + 53))
                .isEqualTo(small);
        assertThat(java.util.Arrays.copyOfRange(image, 26 * SECTOR, 26 * SECTOR + large.length))
                .isEqualTo(large);
        Map<String, byte[]> files = IsoReader.of(image).jolietFiles();
        assertThat(files.get("small")).isEqualTo(small);
        assertThat(files.get("empty")).isEmpty();
        assertThat(files.get("large")).isEqualTo(large);
    }

    @Test
    void writingToAStreamGivesTheSameBytes() throws Exception {
        IsoImage iso = IsoImage.of("cidata", T, List.of(IsoFile.of("user-data", random(5000, 3))));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        iso.writeTo(out);
        assertThat(out.toByteArray()).isEqualTo(iso.toByteArray()).hasSize((int) iso.size());
    }

    @Test
    void eachDirectoryIsInTheOrderOfItsOwnIdentifiers() {
        // '-' sorts before '0' in Joliet, but is '_' in the primary directory, which sorts after it
        IsoReader image = IsoReader.of(IsoImage.of(
                        "cidata",
                        T,
                        List.of(
                                IsoFile.of("user-data", new byte[0]),
                                IsoFile.of("a0", new byte[0]),
                                IsoFile.of("a-b", new byte[0])))
                .toByteArray());
        assertThat(image.jolietFiles()).containsOnlyKeys("a-b", "a0", "user-data");
        assertThat(List.copyOf(image.jolietFiles().keySet())).containsExactly("a-b", "a0", "user-data");
        assertThat(List.copyOf(image.primaryFiles().keySet())).containsExactly("A0.;1", "A_B.;1", "USER_DATA.;1");
    }

    @Test
    void aDirectoryOfManyFilesSpansSectorsWithoutARecordCrossingOne() {
        List<IsoFile> files = manyFiles();
        byte[] image = IsoImage.of("cidata", T, files).toByteArray();
        Map<String, byte[]> joliet = IsoReader.of(image).jolietFiles();
        Map<String, byte[]> primary = IsoReader.of(image).primaryFiles();
        assertThat(joliet).hasSize(files.size());
        assertThat(primary).hasSize(files.size());
        for (IsoFile file : files) {
            assertThat(joliet.get(file.name())).isEqualTo(file.content());
            assertThat(primary.get(file.primaryIdentifier())).isEqualTo(file.content());
        }
    }

    /** 60 files of 30-character names: 94-byte Joliet records, so the root directory needs 3 sectors. */
    static List<IsoFile> manyFiles() {
        List<IsoFile> files = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            files.add(IsoFile.of(String.format("file-%02d-", i) + "x".repeat(21), random(i * 100, i)));
        }
        return files;
    }

    @Test
    void namesLabelsAndTimesAnImageCannotHoldAreRefused() {
        List<IsoFile> none = List.of();
        assertThatThrownBy(() -> IsoFile.of("User-Data", new byte[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IsoFile.of("a.txt", new byte[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IsoFile.of("-a", new byte[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IsoFile.of("x".repeat(31), new byte[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IsoImage.of("ci data", T, none)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IsoImage.of("x".repeat(17), T, none)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IsoImage.of("cidata", Instant.parse("2156-01-01T00:00:00Z"), none))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IsoImage.of("cidata", Instant.parse("1899-12-31T23:59:59Z"), none))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IsoImage.of(
                        "cidata", T, List.of(IsoFile.of("a-b", new byte[0]), IsoFile.of("a_b", new byte[0]))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("A_B.;1");
        assertThat(IsoImage.of("x".repeat(16), Instant.parse("2155-12-31T23:59:59Z"), none)
                        .toByteArray())
                .hasSize(25 * SECTOR);
    }
}
