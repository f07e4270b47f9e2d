package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.server.metrics.MetricsResource;
import dev.bigfleet.proxmox.server.metrics.ProviderMetrics;
import java.util.Optional;
import org.glassfish.hk2.utilities.binding.AbstractBinder;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * Adds the operator surface to the HTTP application: {@code /metrics} always, the admin page and
 * its JSON API unless {@code --admin-ui=false}.
 */
public final class AdminHttp {
    private final ProviderMetrics metrics;
    private final Optional<AdminViews> view;

    public AdminHttp(ProviderMetrics metrics, Optional<AdminViews> view) {
        this.metrics = metrics;
        this.view = view;
    }

    public void register(ResourceConfig resources) {
        resources.register(MetricsResource.class);
        if (view.isPresent()) {
            resources
                    .register(AdminApiResource.class)
                    .register(AdminPageResource.class)
                    .register(GetOnlyFilter.class)
                    .register(JsonMapper.class);
        }
        resources.register(new AbstractBinder() {
            @Override
            protected void configure() {
                bind(metrics).to(ProviderMetrics.class);
                view.ifPresent(v -> {
                    bind(v.inventory()).to(InventoryView.class);
                    bind(v.machine()).to(MachineView.class);
                    bind(v.status()).to(StatusView.class);
                });
            }
        });
    }
}
