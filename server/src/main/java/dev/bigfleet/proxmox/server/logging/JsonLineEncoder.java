package dev.bigfleet.proxmox.server.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.event.KeyValuePair;

/**
 * One JSON object per line: {@code time}, {@code level}, {@code logger}, {@code msg}, then every
 * key-value pair of the event as its own field (numbers and booleans stay typed), and
 * {@code error} with the stack trace when there is one.
 */
public final class JsonLineEncoder extends LineEncoder {
    private static final Set<String> RESERVED = Set.of("time", "level", "logger", "msg", "thread", "error");
    private final JsonFactory json = new JsonFactory();

    @Override
    String line(ILoggingEvent event) {
        StringWriter out = new StringWriter(200);
        try (JsonGenerator g = json.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("time", time(event));
            g.writeStringField("level", event.getLevel().toString());
            g.writeStringField("logger", shortLogger(event));
            g.writeStringField("msg", event.getFormattedMessage());
            if (event.getKeyValuePairs() != null) {
                Set<String> seen = new HashSet<>();
                for (KeyValuePair kv : event.getKeyValuePairs()) {
                    // a pair may not overwrite the fixed fields, nor appear twice (invalid JSON for many readers)
                    String key = RESERVED.contains(kv.key) ? "field_" + kv.key : kv.key;
                    if (seen.add(key)) {
                        g.writeFieldName(key);
                        writeValue(g, kv.value);
                    }
                }
            }
            g.writeStringField("thread", event.getThreadName());
            if (event.getThrowableProxy() != null) {
                g.writeStringField(
                        "error",
                        ThrowableProxyUtil.asString(event.getThrowableProxy()).stripTrailing());
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void writeValue(JsonGenerator g, Object value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else if (value instanceof Integer
                || value instanceof Long
                || value instanceof Short
                || value instanceof Byte) {
            g.writeNumber(((Number) value).longValue());
        } else if (value instanceof Double || value instanceof Float) {
            g.writeNumber(((Number) value).doubleValue());
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else {
            g.writeString(String.valueOf(value));
        }
    }
}
