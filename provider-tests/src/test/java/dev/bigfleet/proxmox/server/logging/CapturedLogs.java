package dev.bigfleet.proxmox.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AppenderBase;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.LoggerFactory;

/**
 * Captures every log event of this JVM, rendered by both line encoders, with the given level
 * forced on every logger (including those logback-test.xml quiets); closing restores the levels.
 */
final class CapturedLogs extends AppenderBase<ILoggingEvent> implements AutoCloseable {
    final List<ILoggingEvent> events = new CopyOnWriteArrayList<>();
    final List<String> lines = new CopyOnWriteArrayList<>();
    private final TextLineEncoder text = new TextLineEncoder();
    private final JsonLineEncoder json = new JsonLineEncoder();
    private final LoggerContext loggerContext = (LoggerContext) LoggerFactory.getILoggerFactory();
    private final Map<Logger, Level> saved = new HashMap<>();
    /** The console appenders, detached meanwhile so a TRACE run does not flood the test output. */
    private final List<Appender<ILoggingEvent>> quieted = new ArrayList<>();

    CapturedLogs(Level level) {
        setContext(loggerContext);
        setName("captured");
        text.setContext(loggerContext);
        json.setContext(loggerContext);
        text.start();
        json.start();
        start();
        for (Logger logger : loggerContext.getLoggerList()) {
            if (logger.getLevel() != null) {
                saved.put(logger, logger.getLevel());
                logger.setLevel(level);
            }
        }
        Logger root = loggerContext.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(level);
        root.iteratorForAppenders().forEachRemaining(quieted::add);
        quieted.forEach(root::detachAppender);
        root.addAppender(this);
    }

    @Override
    protected void append(ILoggingEvent event) {
        event.prepareForDeferredProcessing();
        events.add(event);
        lines.add(new String(text.encode(event), StandardCharsets.UTF_8));
        lines.add(new String(json.encode(event), StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        Logger root = loggerContext.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.detachAppender(this);
        quieted.forEach(root::addAppender);
        saved.forEach(Logger::setLevel);
        stop();
    }
}
