package dev.bigfleet.proxmox.server.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.spi.FilterReply;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.testing.TestingProvider;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

class LogLinesTest {
    private static final LoggerContext CONTEXT = (LoggerContext) LoggerFactory.getILoggerFactory();

    private static ILoggingEvent event(String logger, Level level, String message, Object... keyValues) {
        LoggingEvent e = new LoggingEvent("x", CONTEXT.getLogger(logger), level, message, null, null);
        for (int i = 0; i < keyValues.length; i += 2) {
            e.addKeyValuePair(new KeyValuePair((String) keyValues[i], keyValues[i + 1]));
        }
        return e;
    }

    private static String text(ILoggingEvent e) {
        TextLineEncoder encoder = new TextLineEncoder();
        encoder.setContext(CONTEXT);
        encoder.start();
        return new String(encoder.encode(e), StandardCharsets.UTF_8);
    }

    private static JsonNode json(ILoggingEvent e) throws Exception {
        JsonLineEncoder encoder = new JsonLineEncoder();
        encoder.setContext(CONTEXT);
        encoder.start();
        String line = new String(encoder.encode(e), StandardCharsets.UTF_8);
        assertThat(line).endsWith("\n").doesNotContain("\n\n");
        assertThat(line.strip()).doesNotContain("\n");
        return new ObjectMapper().readTree(line);
    }

    @Test
    void textLinesCarryKeyValuesAndCannotBeSplitByAMessage() {
        String line = text(event(
                "dev.x.rpc",
                Level.WARN,
                "rpc",
                "method",
                "Create",
                "code",
                "NotFound",
                "dur_ms",
                3L,
                "err",
                "machine not found: a b"));
        assertThat(line)
                .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z WARN  rpc rpc method=Create"
                        + " code=NotFound dur_ms=3 err=\"machine not found: a b\"\n");
        assertThat(text(event("x", Level.INFO, "first\nINFO forged line"))).endsWith("first\\nINFO forged line\n");
    }

    @Test
    void jsonLinesAreOneObjectWithTypedFields() throws Exception {
        JsonNode line = json(event(
                "dev.bigfleet.Thing",
                Level.INFO,
                "serving CapacityProvider",
                "addr",
                "127.0.0.1:9000",
                "offerings",
                4,
                "msg",
                "not the message",
                "quote",
                "a \"b\"\nc"));
        assertThat(line.get("level").asText()).isEqualTo("INFO");
        assertThat(line.get("logger").asText()).isEqualTo("Thing");
        assertThat(line.get("msg").asText()).isEqualTo("serving CapacityProvider");
        assertThat(line.get("addr").asText()).isEqualTo("127.0.0.1:9000");
        assertThat(line.get("offerings").isNumber()).isTrue();
        assertThat(line.get("field_msg").asText()).isEqualTo("not the message");
        assertThat(line.get("quote").asText()).isEqualTo("a \"b\"\nc");
        assertThat(line.get("time").asText()).endsWith("Z");
    }

    @Test
    void theLogFormatFlagTakesTextOrJson() {
        assertThat(LogFormat.parse("json")).contains(LogFormat.JSON);
        assertThat(LogFormat.parse(" TEXT ")).contains(LogFormat.TEXT);
        assertThat(LogFormat.parse("yaml")).isEmpty();
        assertThatThrownBy(() ->
                        TestingProvider.builder().flags("--log-format", "yaml").build())
                .hasMessage("--log-format: \"yaml\" is not text or json");
    }

    @Test
    void transportFrameDumpsAreDroppedAtEveryLevel() {
        WireDumpFilter filter = new WireDumpFilter();
        Logger netty = CONTEXT.getLogger("io.grpc.netty.shaded.io.grpc.netty.NettyServerHandler");
        assertThat(filter.decide(null, netty, Level.DEBUG, "INBOUND DATA", null, null))
                .isEqualTo(FilterReply.DENY);
        assertThat(filter.decide(null, netty, Level.WARN, "x", null, null)).isEqualTo(FilterReply.NEUTRAL);
        assertThat(filter.decide(null, CONTEXT.getLogger("rpc"), Level.DEBUG, "rpc", null, null))
                .isEqualTo(FilterReply.NEUTRAL);
    }

    private static Map<String, String> pairs(ILoggingEvent e) {
        return e.getKeyValuePairs() == null
                ? Map.of()
                : e.getKeyValuePairs().stream().collect(Collectors.toMap(kv -> kv.key, kv -> String.valueOf(kv.value)));
    }

    @Test
    void oneRpcLinePerCallWithMethodCodeDurationAndMachineAtTheReferenceLevels() throws Exception {
        try (CapturedLogs logs = new CapturedLogs(Level.DEBUG)) {
            String id = "proxmox/OnDemand/pve.large/pve-a/000";
            try (TestingProvider live = TestingProvider.builder()
                    .flags("--seed-count", "8", "--fake-latency", "0s")
                    .build()) {
                live.client().create(id);
                live.client().awaitState(id, MachineState.MACHINE_STATE_IDLE);
                assertThatThrownBy(() -> live.grpc()
                                .get(MachineRef.newBuilder().setId("nope").build()))
                        .isInstanceOf(StatusRuntimeException.class);
            }
            List<ILoggingEvent> rpc = logs.events.stream()
                    .filter(e -> e.getLoggerName().equals("rpc"))
                    .toList();
            ILoggingEvent create = rpc.stream()
                    .filter(e -> "Create".equals(pairs(e).get("method")))
                    .findFirst()
                    .orElseThrow();
            assertThat(create.getLevel()).isEqualTo(Level.INFO);
            assertThat(pairs(create))
                    .containsEntry("code", "OK")
                    .containsEntry("machine", id)
                    .containsKey("dur_ms");
            ILoggingEvent get = rpc.stream()
                    .filter(e -> "Get".equals(pairs(e).get("method")) && "OK".equals(pairs(e).get("code")))
                    .findFirst()
                    .orElseThrow();
            assertThat(get.getLevel()).isEqualTo(Level.DEBUG);
            ILoggingEvent missing = rpc.stream()
                    .filter(e -> "NotFound".equals(pairs(e).get("code")))
                    .findFirst()
                    .orElseThrow();
            assertThat(missing.getLevel()).isEqualTo(Level.WARN);
            assertThat(pairs(missing)).containsEntry("machine", "nope").containsKey("err");

            ILoggingEvent serving = logs.events.stream()
                    .filter(e -> e.getFormattedMessage().equals("serving CapacityProvider"))
                    .findFirst()
                    .orElseThrow();
            assertThat(serving.getLevel()).isEqualTo(Level.INFO);
            assertThat(pairs(serving))
                    .containsEntry("proxmox_backend", "fake")
                    .containsEntry("security", "insecure")
                    .containsEntry("offerings", "4")
                    .containsEntry("zones", "pve-a,pve-b")
                    .containsKeys("addr", "metrics_addr", "provider");
        }
    }
}
