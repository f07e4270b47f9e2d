package dev.bigfleet.proxmox.backend.proxmox.seed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * Any user-data (none to a few sectors, any bytes) and any instance id and host name read back
 * exactly: through the test's reader for many tries, through isoinfo and through cloud-init's YAML
 * loading for a few, each a separate process.
 */
class NoCloudSeedProperties {
    private static final Instant T = Instant.parse("2025-01-02T03:04:05Z");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Any Unicode text: ASCII-heavy names, YAML's special characters, controls, beyond the BMP. */
    @Provide
    Arbitrary<String> text() {
        Arbitrary<Integer> codePoint = Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.integers().between(0x20, 0x7E)),
                Tuple.of(2, Arbitraries.of((int) '"', (int) '\\', (int) ':', (int) '#', (int) '\n', (int) '\'')),
                Tuple.of(1, Arbitraries.integers().between(0, 0x1F)),
                Tuple.of(1, Arbitraries.integers().between(0x7F, 0xFFFF)),
                Tuple.of(1, Arbitraries.integers().between(0x10000, 0x10FFFF)));
        return codePoint
                .filter(c -> c < Character.MIN_SURROGATE || c > Character.MAX_SURROGATE)
                .list()
                .ofMinSize(1)
                .ofMaxSize(40)
                .map(cs -> {
                    StringBuilder s = new StringBuilder();
                    cs.forEach(s::appendCodePoint);
                    return s.toString();
                });
    }

    @Property(tries = 300)
    void theImageHoldsTheSeedExactly(
            @ForAll @Size(max = 3 * 2048 + 1) byte[] userData,
            @ForAll("text") String instanceId,
            @ForAll("text") String hostname) {
        Statistics.label("user-data sectors")
                .collect((userData.length + 2047) / 2048)
                .coverage(coverage -> {
                    for (int sectors = 0; sectors <= 4; sectors++) {
                        coverage.check(sectors).count(n -> n > 0);
                    }
                });
        NoCloudSeed seed = new NoCloudSeed(instanceId, hostname, userData, Optional.of("version: 2\n"));
        IsoImage iso = seed.image(T);
        byte[] image = iso.toByteArray();
        assertThat(image).hasSize((int) iso.size());
        IsoReader reader = IsoReader.of(image);
        assertThat(reader.volumeId()).isEqualTo("cidata");
        Map<String, byte[]> files = reader.jolietFiles();
        assertThat(files.get("user-data")).isEqualTo(userData);
        assertThat(new String(files.get("meta-data"), StandardCharsets.UTF_8)).isEqualTo(seed.metaData());
        assertThat(reader.primaryFiles().get("USER_DATA.;1")).isEqualTo(userData);
    }

    @Property(tries = 8)
    void isoinfoReadsTheUserDataBackExactly(@ForAll @Size(max = 3 * 2048 + 1) byte[] userData) throws Exception {
        Path image = Files.createTempFile("seed", ".iso");
        try {
            Files.write(
                    image,
                    new NoCloudSeed("i", "h", userData, Optional.empty())
                            .image(T)
                            .toByteArray());
            byte[] read = Tools.run(List.of(
                            Tools.require("isoinfo").toString(), "-J", "-x", "/user-data", "-i", image.toString()))
                    .ok()
                    .stdout;
            assertThat(read).isEqualTo(userData);
        } finally {
            Files.delete(image);
        }
    }

    /** Each try is one cloud-init process loading many meta-data files. */
    @Property(tries = 3)
    void cloudInitReadsAnyInstanceIdAndHostNameBack(
            @ForAll @Size(min = 100, max = 100) List<@From("text") String> values) throws Exception {
        Path python = Tools.requireCloudInit();
        Path dir = Files.createTempDirectory("meta-data");
        try {
            List<String> command =
                    new ArrayList<>(List.of(python.toString(), CloudInitReader.script("load-meta-data.py")));
            List<NoCloudSeed> seeds = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                NoCloudSeed seed = new NoCloudSeed(
                        values.get(i), values.get(values.size() - 1 - i), new byte[0], Optional.empty());
                Path file = dir.resolve("meta-data-" + i);
                Files.writeString(file, seed.metaData(), StandardCharsets.UTF_8);
                command.add(file.toString());
                seeds.add(seed);
            }
            JsonNode loaded = JSON.readTree(Tools.run(command).ok().text());
            for (int i = 0; i < seeds.size(); i++) {
                JsonNode mapping = loaded.get(i);
                assertThat(mapping.isObject())
                        .as("meta-data %s loads as a mapping", seeds.get(i))
                        .isTrue();
                assertThat(mapping.size()).isEqualTo(2);
                assertThat(mapping.get("instance-id").asText())
                        .isEqualTo(seeds.get(i).instanceId());
                assertThat(mapping.get("local-hostname").asText())
                        .isEqualTo(seeds.get(i).localHostname());
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            Files.delete(dir);
        }
    }
}
