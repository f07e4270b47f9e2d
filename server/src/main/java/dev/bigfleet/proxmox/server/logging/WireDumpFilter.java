package dev.bigfleet.proxmox.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.List;
import org.slf4j.Marker;

/**
 * Drops DEBUG and TRACE events of the gRPC transport, whatever level an operator configures:
 * at those levels Netty's HTTP/2 frame logger hex-dumps every request body, and a Configure body
 * carries the bootstrap blob.
 */
public final class WireDumpFilter extends TurboFilter {
    static final List<String> PAYLOAD_LOGGERS = List.of(
            "io.grpc.netty.shaded.io.grpc.netty.", "io.grpc.netty.shaded.io.netty.", "io.grpc.netty.", "io.netty.");

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        if (level == null || level.isGreaterOrEqual(Level.INFO)) {
            return FilterReply.NEUTRAL;
        }
        String name = logger.getName();
        for (String prefix : PAYLOAD_LOGGERS) {
            if (name.startsWith(prefix)) {
                return FilterReply.DENY;
            }
        }
        return FilterReply.NEUTRAL;
    }
}
