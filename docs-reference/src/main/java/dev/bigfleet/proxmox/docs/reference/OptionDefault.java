package dev.bigfleet.proxmox.docs.reference;

import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.server.config.NodeList;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The default of a flag as an operator reads it: picocli's declared default as written (an
 * environment variable named, never its value on the machine that renders the page), else the
 * field's initial value in the form the flag takes ({@code 2m}, not {@code PT2M}). Empty when the
 * flag has none worth showing (unset, empty, or a help switch).
 */
final class OptionDefault {
    private static final Pattern ENV = Pattern.compile("\\$\\{env:([A-Za-z0-9_]+):-([^}]*)}");

    private OptionDefault() {}

    /** The default as Markdown, for a table cell. */
    static String markdown(ArgSpec arg) {
        return text(arg).map(OptionDefault::withEnvironment).orElse("");
    }

    /** The default as plain text, for {@code ${DEFAULT-VALUE}} in a description. */
    static String plain(ArgSpec arg) {
        return text(arg)
                .map(t -> {
                    Matcher env = ENV.matcher(t);
                    return env.matches() ? env.group(2) + ", or $" + env.group(1) + " when set" : t;
                })
                .orElse("");
    }

    private static String withEnvironment(String text) {
        Matcher env = ENV.matcher(text);
        return env.matches()
                ? Markdown.code(env.group(2)) + ", or " + Markdown.code("$" + env.group(1)) + " when set"
                : Markdown.code(text);
    }

    private static Optional<String> text(ArgSpec arg) {
        if (arg instanceof OptionSpec option && (option.usageHelp() || option.versionHelp())) {
            return Optional.empty();
        }
        String declared = declaredDefault(arg);
        if (declared != null) {
            return Optional.of(declared);
        }
        return Optional.ofNullable(arg.initialValue())
                .map(OptionDefault::format)
                .filter(s -> !s.isEmpty());
    }

    /** picocli's default as written, {@code ${env:...}} and all. */
    private static String declaredDefault(ArgSpec arg) {
        return asWritten(arg, arg::defaultValue);
    }

    /**
     * What {@code read} returns with picocli's variable interpolation off, so that nothing of the
     * machine rendering the page (its environment, its system properties) gets into the page.
     */
    static <T> T asWritten(ArgSpec arg, Supplier<T> read) {
        CommandSpec command = arg.command();
        if (command == null) {
            return read.get();
        }
        Boolean interpolating = command.interpolateVariables();
        command.interpolateVariables(false);
        try {
            return read.get();
        } finally {
            command.interpolateVariables(interpolating);
        }
    }

    private static String format(Object value) {
        if (value instanceof Duration d) {
            return GoDuration.format(d);
        }
        if (value instanceof NodeList nodes) {
            return String.join(",", nodes.names());
        }
        if (value instanceof Collection<?> values) {
            return String.join(",", values.stream().map(OptionDefault::format).toList());
        }
        if (value instanceof Map<?, ?> map) {
            return String.join(
                    ",",
                    map.entrySet().stream()
                            .map(e -> e.getKey() + "=" + e.getValue())
                            .toList());
        }
        if (value instanceof Double d) {
            return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        }
        if (value instanceof Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT);
        }
        return String.valueOf(value);
    }
}
