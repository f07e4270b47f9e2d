package dev.bigfleet.proxmox.server.http;

import dev.bigfleet.proxmox.server.serving.ServingState;
import java.util.function.Consumer;
import org.glassfish.hk2.utilities.binding.AbstractBinder;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/** The Jersey application: resource classes plus the process objects they are injected with. */
public final class HttpResources {
    private HttpResources() {}

    public static ResourceConfig create(ServingState serving) {
        return create(serving, resources -> {});
    }

    /** The probes plus whatever {@code extensions} register (metrics, the admin page and its API). */
    public static ResourceConfig create(ServingState serving, Consumer<ResourceConfig> extensions) {
        ResourceConfig resources = new ResourceConfig()
                .property(ServerProperties.WADL_FEATURE_DISABLE, true)
                // an error status is set, not sent: the servlet container's error page would name it
                .property(ServerProperties.RESPONSE_SET_STATUS_OVER_SEND_ERROR, true)
                .register(ProbeResource.class)
                .register(ErrorMapper.class)
                .register(new AbstractBinder() {
                    @Override
                    protected void configure() {
                        bind(serving).to(ServingState.class);
                    }
                });
        extensions.accept(resources);
        return resources;
    }
}
