package dev.bigfleet.proxmox.server.cli;

import dev.bigfleet.proxmox.server.plugin.LoadedBackend;
import dev.bigfleet.proxmox.spi.BackendOption;

/** The {@code --help} section listing every backend found and the options each one reads. */
final class BackendHelp {
    private BackendHelp() {}

    static String render(Iterable<LoadedBackend> backends) {
        StringBuilder out = new StringBuilder(System.lineSeparator())
                .append("Backends (select one with --proxmox-backend NAME; give it options with --backend-opt")
                .append(" KEY=VALUE,")
                .append(System.lineSeparator())
                .append("a --backend-config JSON file, or the flag shown):")
                .append(System.lineSeparator());
        for (LoadedBackend backend : backends) {
            out.append(System.lineSeparator()).append("  ").append(backend.name());
            if (!backend.description().isEmpty()) {
                out.append(": ").append(backend.description());
            }
            out.append(" [").append(backend.origin()).append(']').append(System.lineSeparator());
            for (BackendOption option : backend.options()) {
                out.append("      ").append(option.name()).append(option.isSwitch() ? "" : "=VALUE");
                if (!option.flags().isEmpty()) {
                    out.append("  (").append(String.join(", ", option.flags())).append(')');
                }
                out.append(System.lineSeparator()).append("          ").append(option.description());
                option.defaultValue()
                        .ifPresent(d -> out.append(" Default: ").append(d).append('.'));
                if (option.secret()) {
                    out.append(" Secret: never logged or shown.");
                }
                out.append(System.lineSeparator());
            }
        }
        return out.toString();
    }
}
