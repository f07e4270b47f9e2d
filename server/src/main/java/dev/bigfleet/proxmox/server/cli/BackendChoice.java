package dev.bigfleet.proxmox.server.cli;

import dev.bigfleet.proxmox.server.plugin.BackendRegistry;
import dev.bigfleet.proxmox.server.plugin.LoadedBackend;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.spi.BackendOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Which backend runs: one whose selecting switch is on ({@code --use-fake-backend}), else the one
 * {@code --proxmox-backend} names, else, for {@code auto}, the one backend that claims the options
 * given. The server names no backend here: each one says what selects it.
 */
final class BackendChoice {
    private BackendChoice() {}

    /**
     * @param optionsOf a backend's options as the operator gave them (flags, {@code --backend-opt},
     *     the {@code --backend-config} file), restricted to those it declares
     */
    static LoadedBackend select(ParsedCommandLine command, Function<LoadedBackend, BackendOptions> optionsOf)
            throws ConfigException {
        BackendRegistry backends = command.backends();
        List<String> selecting = new ArrayList<>();
        for (LoadedBackend backend : backends.all()) {
            if (isSwitchedOn(backend, optionsOf.apply(backend))) {
                selecting.add(backend.name());
            }
        }
        if (selecting.size() > 1) {
            throw new ConfigException("flags select two backends at once: " + String.join(" and ", selecting));
        }
        if (selecting.size() == 1) {
            return backends.require(selecting.get(0));
        }
        String requested = command.flags().proxmoxBackend.trim().toLowerCase(Locale.ROOT);
        if (!requested.isEmpty() && !requested.equals("auto")) {
            return backends.require(requested);
        }
        List<LoadedBackend> claiming = new ArrayList<>();
        for (LoadedBackend backend : backends.all()) {
            if (backend.claimsAuto(optionsOf.apply(backend))) {
                claiming.add(backend);
            }
        }
        if (claiming.size() == 1) {
            return claiming.get(0);
        }
        if (claiming.isEmpty()) {
            List<String> hints = new ArrayList<>();
            backends.all().forEach(b -> b.autoHint().ifPresent(hints::add));
            throw new ConfigException("--proxmox-backend auto: no backend recognises these settings"
                    + (hints.isEmpty() ? "; pass --proxmox-backend NAME" : "; " + String.join(", or ", hints)));
        }
        throw new ConfigException("--proxmox-backend auto: backends "
                + String.join(
                        " and ", claiming.stream().map(LoadedBackend::name).toList())
                + " both claim these settings; pass"
                + " --proxmox-backend NAME");
    }

    private static boolean isSwitchedOn(LoadedBackend backend, BackendOptions options) throws ConfigException {
        try {
            return backend.options().stream().anyMatch(o -> o.selectsBackend() && options.bool(o));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }
}
