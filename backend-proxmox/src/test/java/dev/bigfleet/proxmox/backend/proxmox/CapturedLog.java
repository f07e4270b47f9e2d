package dev.bigfleet.proxmox.backend.proxmox;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.List;

/** Keeps every log line of the test JVM, exception messages included, for leak checks. */
public final class CapturedLog extends AppenderBase<ILoggingEvent> {
    private static final List<String> LINES = new ArrayList<>();

    @Override
    protected void append(ILoggingEvent event) {
        StringBuilder line =
                new StringBuilder(event.getLoggerName()).append(' ').append(event.getFormattedMessage());
        for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
            line.append(" | ").append(t.getClassName()).append(": ").append(t.getMessage());
        }
        synchronized (LINES) {
            LINES.add(line.toString());
        }
    }

    public static List<String> lines() {
        synchronized (LINES) {
            return List.copyOf(LINES);
        }
    }
}
