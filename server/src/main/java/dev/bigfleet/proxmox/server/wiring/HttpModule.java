package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.bigfleet.proxmox.server.config.ProviderConfig;
import dev.bigfleet.proxmox.server.http.HttpServer;
import dev.bigfleet.proxmox.server.ServingState;
import dev.bigfleet.proxmox.server.admin.AdminHttp;
import dev.bigfleet.proxmox.server.http.HttpResources;
import java.util.Optional;

/** The HTTP surface on --metrics-addr; absent when that flag is empty. */
public final class HttpModule extends AbstractModule {
    @Provides
    @Singleton
    Optional<HttpServer> httpServer(ProviderConfig config, ServingState serving, AdminHttp admin) {
        return config.httpAddress().map(address -> new HttpServer(address,
                HttpResources.create(serving, admin::register)));
    }
}
