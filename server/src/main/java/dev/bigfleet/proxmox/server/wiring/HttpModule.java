package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.bigfleet.proxmox.server.admin.AdminHttp;
import dev.bigfleet.proxmox.server.config.HttpConfig;
import dev.bigfleet.proxmox.server.config.TlsFiles;
import dev.bigfleet.proxmox.server.http.ClientCertificateFilter;
import dev.bigfleet.proxmox.server.http.HttpResources;
import dev.bigfleet.proxmox.server.http.HttpServer;
import dev.bigfleet.proxmox.server.http.Https;
import dev.bigfleet.proxmox.server.serving.ServingState;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.server.tls.ServerTls;
import java.util.Optional;
import org.glassfish.jersey.server.ResourceConfig;

/** The HTTP surface on --metrics-addr, in HTTPS with --metrics-tls-cert; absent when the address is empty. */
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
    Optional<HttpServer> httpServer(ServingState serving, AdminHttp admin) throws ConfigException {
        if (config.address().isEmpty()) {
            return Optional.empty();
        }
        Optional<Https> https = Optional.empty();
        if (config.tls().isPresent()) {
            TlsFiles files = config.tls().get();
            https = Optional.of(new Https(ServerTls.jdkContext(files), config.requiresClientCertificates()));
        }
        ResourceConfig resources = HttpResources.create(serving, admin::register);
        if (config.requiresClientCertificates()) {
            resources.register(ClientCertificateFilter.class);
        }
        return Optional.of(new HttpServer(config.address().get(), resources, https));
    }
}
