package dev.bigfleet.proxmox.server.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.EncoderBase;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** One log event per line, UTF-8; subclasses choose the line's shape. */
abstract class LineEncoder extends EncoderBase<ILoggingEvent> {
    static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneOffset.UTC);

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        return (line(event) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    abstract String line(ILoggingEvent event);

    static String time(ILoggingEvent event) {
        return TIME.format(Instant.ofEpochMilli(event.getTimeStamp()));
    }

    /** The logger's last name segment, as {@code %logger{0}} writes it. */
    static String shortLogger(ILoggingEvent event) {
        String name = event.getLoggerName();
        int dot = name.lastIndexOf('.');
        return dot < 0 ? name : name.substring(dot + 1);
    }
}
