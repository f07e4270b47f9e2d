package dev.bigfleet.proxmox.server.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import org.slf4j.event.KeyValuePair;

/**
 * {@code TIME LEVEL LOGGER message key=value ...}: the key-value pairs of the SLF4J fluent API
 * follow the message, values quoted when they hold spaces, quotes or {@code =}. Line breaks in a
 * message are escaped, so a backend error text cannot forge extra log lines.
 */
public final class TextLineEncoder extends LineEncoder {
    @Override
    String line(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(160)
                .append(time(event))
                .append(' ')
                .append(String.format("%-5s", event.getLevel()))
                .append(' ')
                .append(shortLogger(event))
                .append(' ')
                .append(escapeBreaks(event.getFormattedMessage()));
        if (event.getKeyValuePairs() != null) {
            for (KeyValuePair kv : event.getKeyValuePairs()) {
                line.append(' ').append(kv.key).append('=').append(value(String.valueOf(kv.value)));
            }
        }
        if (event.getThrowableProxy() != null) {
            line.append('\n')
                    .append(ThrowableProxyUtil.asString(event.getThrowableProxy())
                            .stripTrailing());
        }
        return line.toString();
    }

    static String value(String v) {
        boolean plain = !v.isEmpty();
        for (int i = 0; i < v.length() && plain; i++) {
            char c = v.charAt(i);
            plain = c > ' ' && c != '"' && c != '=' && c != '\\' && c != 0x7f;
        }
        if (plain) {
            return v;
        }
        StringBuilder q = new StringBuilder(v.length() + 2).append('"');
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                case '\n' -> q.append("\\n");
                case '\r' -> q.append("\\r");
                case '\t' -> q.append("\\t");
                default -> q.append(c);
            }
        }
        return q.append('"').toString();
    }

    private static String escapeBreaks(String message) {
        if (message == null) {
            return "";
        }
        return message.indexOf('\n') < 0 && message.indexOf('\r') < 0
                ? message
                : message.replace("\r", "\\r").replace("\n", "\\n");
    }
}
