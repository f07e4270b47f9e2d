package dev.bigfleet.proxmox.server.http;

import dev.bigfleet.proxmox.server.ServingState;
import org.glassfish.hk2.utilities.binding.AbstractBinder;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/** The Jersey application: resource classes plus the process objects they are injected with. */
public final class HttpResources {
    private HttpResources() {}

    public static ResourceConfig create(ServingState serving) {
        return new ResourceConfig()
                .property(ServerProperties.WADL_FEATURE_DISABLE, true)
                .register(ProbeResource.class)
                .register(new AbstractBinder() {
                    @Override
                    protected void configure() {
                        bind(serving).to(ServingState.class);
                    }
                });
    }
}
