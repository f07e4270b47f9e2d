package dev.bigfleet.proxmox.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code --log-format json} as an operator runs it: every stderr line of the process is one JSON object. */
@Tag("process")
class LogFormatProcessTest {
    @Test
    void everyLineIsJsonAndTheStartupLineCarriesItsFields() throws Exception {
        ObjectMapper json = new ObjectMapper();
        try (TestingProvider p = TestingProvider.builder()
                .launch(Launch.OWN_JVM)
                .flags("--log-format", "json")
                .fakeLatency(Duration.ZERO)
                .seedCount(4)
                .build()) {
            JsonNode serving = null;
            for (String line : p.log()) {
                if (line.contains("serving CapacityProvider")) {
                    serving = json.readTree(line);
                }
            }
            assertThat(serving).as("startup line in %s", p.log()).isNotNull();
            assertThat(serving.get("level").asText()).isEqualTo("INFO");
            assertThat(serving.get("msg").asText()).isEqualTo("serving CapacityProvider");
            assertThat(serving.get("proxmox_backend").asText()).isEqualTo("fake");
            assertThat(serving.get("security").asText()).isEqualTo("insecure");
            assertThat(serving.get("offerings").asInt()).isEqualTo(4);
            assertThat(serving.get("addr").asText()).startsWith("127.0.0.1:");
            assertThat(serving.get("metrics_addr").asText()).startsWith("127.0.0.1:");
            List<String> lines = new ArrayList<>(p.log());
            assertThat(lines).hasSizeGreaterThan(1);
            for (String line : lines) {
                JsonNode node = json.readTree(line);
                assertThat(node.has("time") && node.has("level") && node.has("msg"))
                        .as(line)
                        .isTrue();
            }
        }
    }
}
