package dev.bigfleet.proxmox.server.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import jakarta.ws.rs.ext.ContextResolver;
import jakarta.ws.rs.ext.Provider;

/** JSON field names in snake_case, as in the wire contract and the metrics. */
@Provider
public final class JsonMapper implements ContextResolver<ObjectMapper> {
    private final ObjectMapper mapper =
            new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    @Override
    public ObjectMapper getContext(Class<?> type) {
        return mapper;
    }
}
