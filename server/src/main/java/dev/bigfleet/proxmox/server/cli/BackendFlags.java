package dev.bigfleet.proxmox.server.cli;

import dev.bigfleet.proxmox.server.plugin.LoadedBackend;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.spi.BackendOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.DuplicateOptionAnnotationsException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The flag aliases backends declare for their options ({@code --proxmox-api-url}, {@code
 * --fake-latency}, ...), added to the command line so they parse like any flag. After a parse it
 * tells, per backend, which options the operator set through them.
 */
final class BackendFlags {
    /** One alias: the flag, and the backend option it sets. */
    record Alias(String flag, LoadedBackend backend, BackendOption option) {}

    private final Map<String, Alias> byFlag = new LinkedHashMap<>();

    /**
     * Adds every backend's aliases to {@code spec}, hidden from the server's own option list ({@code
     * --help} shows them per backend).
     *
     * @throws ConfigException when an alias is already a flag of the server or of another backend
     */
    void register(CommandSpec spec, Iterable<LoadedBackend> backends) throws ConfigException {
        for (LoadedBackend backend : backends) {
            for (BackendOption option : backend.options()) {
                for (String flag : option.flags()) {
                    Alias taken = byFlag.get(flag);
                    if (taken != null) {
                        throw new ConfigException("flag " + flag + " is declared by backend " + backend + " and by"
                                + " backend " + taken.backend());
                    }
                    OptionSpec.Builder builder = OptionSpec.builder(flag).hidden(true);
                    if (option.isSwitch()) {
                        // typed boolean, so a following flag is never taken for the switch's value
                        builder.type(Boolean.class)
                                .arity("0..1")
                                .fallbackValue("true")
                                .paramLabel("BOOL");
                    } else {
                        builder.type(String.class).arity("1").paramLabel("VALUE");
                    }
                    try {
                        spec.addOption(builder.build());
                    } catch (DuplicateOptionAnnotationsException e) {
                        throw new ConfigException(
                                "flag " + flag + " of backend " + backend + " is already a flag of the provider");
                    }
                    byFlag.put(flag, new Alias(flag, backend, option));
                }
            }
        }
    }

    /** The aliases given on this command line, in the order they were declared. */
    List<SetAlias> given(ParseResult result) {
        return byFlag.values().stream()
                .filter(a -> result.hasMatchedOption(a.flag()))
                .map(a -> new SetAlias(a, valueOf(result, a.flag())))
                .toList();
    }

    private static String valueOf(ParseResult result, String flag) {
        Object value = result.matchedOption(flag).getValue();
        return value.toString();
    }

    /** An alias the operator gave, with its value. */
    record SetAlias(Alias alias, String value) {
        String backendName() {
            return alias.backend().name();
        }
    }
}
