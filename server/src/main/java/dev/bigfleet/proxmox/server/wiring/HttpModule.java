package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.bigfleet.proxmox.server.admin.AdminHttp;
import dev.bigfleet.proxmox.server.config.HttpConfig;
import dev.bigfleet.proxmox.server.http.HttpResources;
import dev.bigfleet.proxmox.server.http.HttpServer;
import dev.bigfleet.proxmox.server.serving.ServingState;
import java.util.Optional;

/** The HTTP surface on --metrics-addr; absent when that flag is empty. */
public final class HttpModule extends AbstractModule {
    private final HttpConfig config;

    public HttpModule(HttpConfig config) {
        this.config = config;
    }

    @Override
    protected void configure() {
        bind(HttpConfig.class).toInstance(config);
    }

    @Provides
    @Singleton
    Optional<HttpServer> httpServer(ServingState serving, AdminHttp admin) {
        return config.address().map(address -> new HttpServer(address, HttpResources.create(serving, admin::register)));
    }
}
