package dev.bigfleet.proxmox.server.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import java.util.Iterator;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code --log-format} to the console appender that {@code logback.xml} set up, and
 * installs the {@link WireDumpFilter}. Safe to call more than once (tests start several providers
 * in one JVM).
 */
public final class LogSetup {
    private LogSetup() {}

    public static void apply(LogFormat format) {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (!(factory instanceof LoggerContext context)) {
            return; // another SLF4J binding: it owns the format
        }
        if (context.getTurboFilterList().stream().noneMatch(f -> f instanceof WireDumpFilter)) {
            WireDumpFilter filter = new WireDumpFilter();
            filter.setContext(context);
            filter.start();
            context.addTurboFilter(filter);
        }
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
            if (it.next() instanceof OutputStreamAppender<ILoggingEvent> console) {
                LineEncoder encoder = format == LogFormat.JSON ? new JsonLineEncoder() : new TextLineEncoder();
                encoder.setContext(context);
                encoder.start();
                console.setEncoder(encoder);
            }
        }
    }
}
