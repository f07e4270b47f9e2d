package dev.bigfleet.proxmox.server.cli;

import dev.bigfleet.proxmox.server.plugin.BackendRegistry;
import java.util.List;

/** A command line that parsed: the server's flags, the backends found, and the backend flags given. */
public record ParsedCommandLine(ProviderFlags flags, BackendRegistry backends, List<BackendFlags.SetAlias> aliases) {
    public ParsedCommandLine {
        aliases = List.copyOf(aliases);
    }
}
