package dev.bigfleet.proxmox.server.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AsyncAppenderBase;
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
        setEncoders(root.iteratorForAppenders(), format, context);
    }

    /** Sets the format's encoder on every console appender, also those behind an async appender. */
    private static void setEncoders(
            Iterator<Appender<ILoggingEvent>> appenders, LogFormat format, LoggerContext context) {
        while (appenders.hasNext()) {
            Appender<ILoggingEvent> appender = appenders.next();
            if (appender instanceof OutputStreamAppender<ILoggingEvent> console) {
                LineEncoder encoder = format == LogFormat.JSON ? new JsonLineEncoder() : new TextLineEncoder();
                encoder.setContext(context);
                encoder.start();
                console.setEncoder(encoder);
            } else if (appender instanceof AsyncAppenderBase<ILoggingEvent> async) {
                setEncoders(async.iteratorForAppenders(), format, context);
            }
        }
    }
}
