package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOption;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.BackendSpi;
import dev.bigfleet.proxmox.spi.PreflightReport;
import dev.bigfleet.proxmox.spi.PreflightRequest;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Selected with {@code --proxmox-backend proxmox} (or {@code auto} with an API URL). Reads and
 * validates its options and the instance types' settings, then proves the cluster is the one
 * configured (TLS, token, nodes, pool, a template per type and node, storages, bridges, CPU
 * models, privileges) before the provider starts serving.
 */
public final class ProxmoxApiBackendFactory implements ProxmoxBackendFactory {
    public static final String NAME = "proxmox";
    private static final Logger log = LoggerFactory.getLogger(ProxmoxApiBackendFactory.class);

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
        return "a Proxmox VE 8.x/9.x cluster through its /api2/json REST API and an API token";
    }

    @Override
    public List<BackendOption> options() {
        return ProxmoxOptions.ALL;
    }

    /**
     * The keys of {@link TypeSettings}: template choice, clone mode and shape. {@code template_vmid}
     * is among them so an entry's own template VMID can win over {@code --template-tags}.
     */
    @Override
    public List<String> instanceTypeSettings() {
        return TypeSettings.KEYS;
    }

    @Override
    public Map<String, String> instanceTypeSettingSchemas() {
        return TypeSettingSchemas.all();
    }

    /** {@code auto} means this backend as soon as an API URL is given. */
    @Override
    public boolean claimsAuto(BackendOptions options) {
        return options.get(ProxmoxOptions.API_URL).isPresent();
    }

    @Override
    public Optional<String> autoHint() {
        return Optional.of("set " + ProxmoxOptions.API_URL.flags().get(0) + " to run on a Proxmox cluster");
    }

    @Override
    public void validate(BackendOptions options) {
        ProxmoxSettings.from(options);
    }

    @Override
    public ProxmoxBackend create(BackendContext context) {
        ProxmoxSettings settings = ProxmoxSettings.from(context.options());
        StartupCheck.checkPlacement(context);
        context.catalog().asMap().values().forEach(TypeSettings::of);
        ProxmoxApiBackend backend = new ProxmoxApiBackend(settings, context.providerLabel(), context.apiCalls());
        try {
            backend.usePlan(new StartupCheck(backend.api()).run(context, settings, backend.storageStatus()));
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
        log.info("proxmox backend ready: provider={} {}", context.providerLabel(), settings);
        return backend;
    }

    /**
     * Every startup check reported per (instance type, node) pair; with {@code live} each pair that
     * passes them is tried on a VM of its own ({@link LivePreflight}), destroyed again.
     */
    @Override
    public PreflightReport preflight(BackendContext context, PreflightRequest request) {
        ProxmoxSettings settings = ProxmoxSettings.from(context.options());
        context.catalog().asMap().values().forEach(TypeSettings::of);
        ProxmoxApiBackend backend = new ProxmoxApiBackend(settings, context.providerLabel(), context.apiCalls());
        LivePreflight[] live = {null};
        try {
            return new Preflight(backend, settings).run(context, request, () -> {
                if (live[0] == null) {
                    live[0] = new LivePreflight(backend, settings);
                }
                return live[0];
            });
        } finally {
            if (live[0] != null) {
                live[0].close();
            }
            backend.close();
        }
    }
}
