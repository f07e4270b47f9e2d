package com.example.bigfleet.backend;

import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOption;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.BackendSpi;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The example plugin's entry point, listed in {@code META-INF/services} and selected with
 * {@code --proxmox-backend example}. Its nodes are the configured ones ({@code --nodes}) plus every
 * offering zone, so any inventory the provider accepts can be served.
 */
public final class ExampleBackendFactory implements ProxmoxBackendFactory {
    public static final String NAME = "example";

    private static final Logger log = LoggerFactory.getLogger(ExampleBackendFactory.class);

    /** The constant is compiled in: this is the SPI version the plugin was built against. */
    @Override
    public int spiVersion() {
        return BackendSpi.VERSION;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "an example third-party backend: VMs kept in memory per node, optionally in a state file";
    }

    @Override
    public List<BackendOption> options() {
        return ExampleOptions.ALL;
    }

    @Override
    public void validate(BackendOptions options) {
        ExampleSettings.from(options);
    }

    @Override
    public ProxmoxBackend create(BackendContext context) {
        ExampleSettings settings = ExampleSettings.from(context.options());
        Set<String> nodeNames = new LinkedHashSet<>(context.nodes());
        for (Offering offering : context.offerings()) {
            nodeNames.add(offering.zone());
        }
        String where = context.options().where(ExampleOptions.STATE_FILE);
        Optional<StateFile> stateFile = settings.stateFile().map(path -> new StateFile(path, where));
        ExampleNodes nodes = new ExampleNodes(nodeNames, stateFile);
        log.info("example backend ready (provider {}, nodes {}, {} VMs, state {}, boot delay {} ms) with"
                + " jackson-databind {}", context.providerLabel(), String.join(",", nodes.nodeNames()),
                nodes.all().size(), stateFile.map(f -> f.path().toString()).orElse("in memory"),
                settings.bootDelay().toMillis(), StateFile.jacksonVersion());
        return new ExampleBackend(nodes, settings.bootDelay(), context.apiCalls());
    }
}
