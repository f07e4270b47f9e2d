package dev.bigfleet.proxmox.testing;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.bigfleet.proxmox.server.logging.TextLineEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * The log of a provider running in this JVM: every line logged in the JVM while it runs, rendered
 * as the provider's text format renders it (a provider of its own process has its stderr instead).
 */
final class JvmLog extends AppenderBase<ILoggingEvent> implements AutoCloseable {
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final TextLineEncoder encoder = new TextLineEncoder();
    private final Logger root;

    private JvmLog(LoggerContext context) {
        setContext(context);
        setName("testing-provider-" + System.identityHashCode(this));
        encoder.setContext(context);
        encoder.start();
        start();
        root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(this);
    }

    /** Starts capturing (nothing is captured under another SLF4J binding). */
    static JvmLog capture() {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        return factory instanceof LoggerContext context ? new JvmLog(context) : null;
    }

    List<String> lines() {
        return lines;
    }

    @Override
    protected void append(ILoggingEvent event) {
        lines.add(new String(encoder.encode(event), StandardCharsets.UTF_8).stripTrailing());
    }

    @Override
    public void close() {
        root.detachAppender(this);
        stop();
    }
}
