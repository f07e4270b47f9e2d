package dev.bigfleet.proxmox.backend.proxmox.seed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Images read back with Debian's readers: isoinfo and isovfy (genisoimage), xorriso (libisofs) and
 * blkid (libblkid, which cloud-init asks for a device labelled cidata). The Linux kernel's isofs
 * cannot be asked here: a container has no iso9660 file system to loop-mount with.
 */
class IsoReadersTest {
    private static final Instant T = Instant.parse("2025-01-02T03:04:05Z");
    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    private Path write(IsoImage image) throws Exception {
        Path file = dir.resolve("seed.iso");
        Files.write(file, image.toByteArray());
        return file;
    }

    private static NoCloudSeed seed(byte[] userData) {
        return new NoCloudSeed("vm-101", "node-1", userData, Optional.of("version: 2\n"));
    }

    private static String isoinfo(String... args) {
        List<String> command = new ArrayList<>(List.of(Tools.require("isoinfo").toString()));
        command.addAll(List.of(args));
        return Tools.run(command).ok().text();
    }

    private static byte[] isoinfoExtract(Path image, boolean joliet, String path) {
        List<String> command = new ArrayList<>(List.of(Tools.require("isoinfo").toString()));
        if (joliet) {
            command.add("-J");
        }
        command.addAll(List.of("-x", path, "-i", image.toString()));
        return Tools.run(command).ok().stdout;
    }

    @Test
    void isoinfoFindsTheLabelJolietAndTheSize() throws Exception {
        IsoImage image = seed(new byte[100]).image(T);
        String info = isoinfo("-d", "-i", write(image).toString());
        assertThat(info)
                .contains("CD-ROM is in ISO 9660 format")
                .contains("Volume id: cidata\n")
                .contains("Logical block size is: 2048")
                .contains("Volume size is: " + image.size() / 2048 + "\n")
                .contains("Joliet with UCS level 3 found");
    }

    @Test
    void isoinfoListsTheExactNamesThroughJolietAndDCharacterNamesWithout() throws Exception {
        Path image = write(seed(new byte[100]).image(T));
        assertThat(isoinfo("-J", "-l", "-i", image.toString()))
                .containsPattern("\\s100 Jan  2 2025 \\[ +\\d+ 00\\]  user-data \n")
                .contains("  meta-data \n")
                .contains("  network-config \n");
        assertThat(isoinfo("-l", "-i", image.toString()))
                .contains("  USER_DATA.;1 \n")
                .contains("  META_DATA.;1 \n")
                .contains("  NETWORK_CONFIG.;1 \n");
    }

    @Test
    void isoinfoExtractsAMegabyteOfUserDataExactly() throws Exception {
        byte[] userData = IsoImageTest.random(MIB + 7, 42);
        NoCloudSeed seed = seed(userData);
        Path image = write(seed.image(T));
        assertThat(isoinfoExtract(image, true, "/user-data")).isEqualTo(userData);
        assertThat(isoinfoExtract(image, false, "/USER_DATA.;1")).isEqualTo(userData);
        assertThat(isoinfoExtract(image, true, "/meta-data"))
                .isEqualTo(seed.files().get(0).content());
        assertThat(isoinfoExtract(image, true, "/network-config"))
                .isEqualTo(seed.files().get(1).content());
    }

    @Test
    void isoinfoReadsEmptyUserDataAsTheLastFile() throws Exception {
        Path image = write(new NoCloudSeed("i", "h", new byte[0], Optional.empty()).image(T));
        assertThat(isoinfoExtract(image, true, "/user-data")).isEmpty();
        assertThat(isoinfo("-J", "-l", "-i", image.toString())).contains("  user-data \n");
    }

    @Test
    void isovfyFindsNoErrors() throws Exception {
        for (IsoImage image : List.of(
                seed(IsoImageTest.random(5000, 1)).image(T), IsoImage.of("cidata", T, IsoImageTest.manyFiles()))) {
            Tools.Result result = Tools.run(
                    List.of(Tools.require("isovfy").toString(), write(image).toString()));
            assertThat(result.ok().text()).contains("No errors found");
        }
    }

    @Test
    void xorrisoListsAndExtractsTheFilesWithoutComplaint() throws Exception {
        byte[] userData = IsoImageTest.random(3 * 2048 + 5, 7);
        NoCloudSeed seed = seed(userData);
        Path image = write(seed.image(T));
        String xorriso = Tools.require("xorriso").toString();
        Tools.Result listed = Tools.run(List.of(xorriso, "-indev", image.toString(), "-toc", "-ls", "/"))
                .ok();
        String all = listed.text() + listed.stderr;
        assertThat(all).contains("Volume id    : 'cidata'").contains("ISO loaded   : Joliet");
        assertThat(listed.text()).contains("'meta-data'\n'network-config'\n'user-data'\n");
        assertThat(all).doesNotContainPattern("WARNING|SORRY|FAILURE|FATAL");
        Path out = dir.resolve("extracted");
        Tools.Result extracted = Tools.run(
                        List.of(xorriso, "-osirrox", "on", "-indev", image.toString(), "-extract", "/", out.toString()))
                .ok();
        assertThat(extracted.text() + extracted.stderr).doesNotContainPattern("WARNING|SORRY|FAILURE|FATAL");
        assertThat(out.resolve("user-data")).hasBinaryContent(userData);
        assertThat(out.resolve("meta-data"))
                .hasBinaryContent(seed.files().get(0).content());
        assertThat(out.resolve("network-config")).hasContent("version: 2");
        try (var names = Files.list(out)) {
            assertThat(names.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("meta-data", "network-config", "user-data");
        }
    }

    @Test
    void blkidSeesAnIso9660FileSystemLabelledCidata() throws Exception {
        Path image = write(seed(new byte[10]).image(T));
        String probe = Tools.run(List.of(Tools.require("blkid").toString(), "-p", image.toString()))
                .ok()
                .text();
        assertThat(probe)
                .contains(" LABEL=\"cidata\" ")
                .contains(" TYPE=\"iso9660\" ")
                .contains(" VERSION=\"Joliet Extension\" ");
    }

    @Test
    void aDirectoryOfSeveralSectorsReadsBackThroughIsoinfoAndXorriso() throws Exception {
        List<IsoFile> files = IsoImageTest.manyFiles();
        Path image = write(IsoImage.of("cidata", T, files));
        String listing = isoinfo("-J", "-l", "-i", image.toString());
        for (IsoFile file : List.of(files.get(0), files.get(30), files.get(59))) {
            assertThat(listing).contains("  " + file.name() + " \n");
            assertThat(isoinfoExtract(image, true, "/" + file.name())).isEqualTo(file.content());
        }
        Path out = dir.resolve("extracted");
        Tools.run(List.of(
                        Tools.require("xorriso").toString(),
                        "-osirrox",
                        "on",
                        "-indev",
                        image.toString(),
                        "-extract",
                        "/",
                        out.toString()))
                .ok();
        for (IsoFile file : files) {
            assertThat(out.resolve(file.name())).hasBinaryContent(file.content());
        }
    }

    /** The test's own reader, which the properties use, reads what isoinfo reads. */
    @Test
    void theTestReaderAgreesWithIsoinfo() throws Exception {
        for (int i = 0; i < 4; i++) {
            byte[] userData = IsoImageTest.random(i * 1500, i);
            IsoImage iso = new NoCloudSeed("id-" + i, "host\n" + i, userData, Optional.of("n: " + i)).image(T);
            Path image = write(iso);
            IsoReader reader = IsoReader.of(iso.toByteArray());
            for (Map.Entry<String, byte[]> file : reader.jolietFiles().entrySet()) {
                assertThat(isoinfoExtract(image, true, "/" + file.getKey())).isEqualTo(file.getValue());
            }
            for (Map.Entry<String, byte[]> file : reader.primaryFiles().entrySet()) {
                assertThat(isoinfoExtract(image, false, "/" + file.getKey())).isEqualTo(file.getValue());
            }
            assertThat(reader.jolietFiles().keySet()).containsExactly("meta-data", "network-config", "user-data");
            assertThat(isoinfo("-d", "-i", image.toString())).contains("Volume id: " + reader.volumeId() + "\n");
        }
    }
}
