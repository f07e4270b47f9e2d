package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.bigfleet.proxmox.server.admin.AdminHttp;
import dev.bigfleet.proxmox.server.admin.AdminViews;
import dev.bigfleet.proxmox.server.admin.InventoryView;
import dev.bigfleet.proxmox.server.admin.MachineView;
import dev.bigfleet.proxmox.server.admin.StatusView;
import dev.bigfleet.proxmox.server.config.ObservabilitySettings;
import dev.bigfleet.proxmox.server.metrics.ProviderMetrics;
import java.util.Optional;

/** {@code /metrics}, and the admin page with its JSON API unless {@code --admin-ui=false}. */
public final class AdminModule extends AbstractModule {
    private final ObservabilitySettings settings;

    public AdminModule(ObservabilitySettings settings) {
        this.settings = settings;
    }

    @Override
    protected void configure() {
        bind(ObservabilitySettings.class).toInstance(settings);
    }

    @Provides
    @Singleton
    AdminHttp adminHttp(
            ProviderMetrics metrics,
            Provider<InventoryView> inventory,
            Provider<MachineView> machine,
            Provider<StatusView> status) {
        return new AdminHttp(
                metrics,
                settings.adminUi()
                        ? Optional.of(new AdminViews(inventory.get(), machine.get(), status.get()))
                        : Optional.empty());
    }
}
