package dev.bigfleet.proxmox.server.cli;

import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.server.config.ListenAddress;
import dev.bigfleet.proxmox.server.config.NodeList;
import dev.bigfleet.proxmox.server.config.UnnamedClients;
import dev.bigfleet.proxmox.server.logging.LogFormat;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * How flag text becomes typed values. A value that does not convert stops startup with one line
 * naming the flag ({@link ProviderCommandLine} adds the flag's name to the message).
 */
final class FlagTypes {
    private FlagTypes() {}

    /** Go syntax: {@code 500ms}, {@code 90s}, {@code 1h30m}. */
    static final class GoDurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return GoDuration.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** {@code host:port}; an empty host is every interface. */
    static final class ListenAddressConverter implements ITypeConverter<ListenAddress> {
        @Override
        public ListenAddress convert(String value) {
            try {
                return ListenAddress.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** Comma-separated Proxmox node names. */
    static final class NodesConverter implements ITypeConverter<NodeList> {
        @Override
        public NodeList convert(String value) {
            try {
                return NodeList.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** {@code text} or {@code json}. */
    static final class LogFormatConverter implements ITypeConverter<LogFormat> {
        @Override
        public LogFormat convert(String value) {
            return LogFormat.parse(value)
                    .orElseThrow(() -> new TypeConversionException("\"" + value + "\" is not text or json"));
        }
    }

    /** {@code read} or {@code mutate}. */
    static final class UnnamedClientsConverter implements ITypeConverter<UnnamedClients> {
        @Override
        public UnnamedClients convert(String value) {
            return UnnamedClients.parse(value)
                    .orElseThrow(() -> new TypeConversionException("\"" + value + "\" is not read or mutate"));
        }
    }

    /** A USD amount: finite and not negative. */
    static final class PriceConverter implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double price;
            try {
                price = Double.parseDouble(value.trim());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("\"" + value + "\" is not a number");
            }
            if (Double.isNaN(price) || Double.isInfinite(price) || price < 0) {
                throw new TypeConversionException("must be a finite number >= 0, got " + value);
            }
            return price;
        }
    }

    /** A whole number greater than zero. */
    static final class PositiveLongConverter implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long n;
            try {
                n = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("\"" + value + "\" is not a whole number");
            }
            if (n <= 0) {
                throw new TypeConversionException("must be > 0, got " + n);
            }
            return n;
        }
    }
}
