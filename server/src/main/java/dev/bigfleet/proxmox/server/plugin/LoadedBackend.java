package dev.bigfleet.proxmox.server.plugin;

import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOption;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.PreflightReport;
import dev.bigfleet.proxmox.spi.PreflightRequest;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A backend factory as the host found it: where it came from and the class loader it lives in.
 * Every call into the factory, and into the backend it creates, runs with that loader as the
 * thread's context class loader.
 */
public final class LoadedBackend {
    private final ProxmoxBackendFactory factory;
    private final ClassLoader loader;
    private final String origin;
    private final String name;
    private final String description;
    private final List<BackendOption> options;
    private final List<String> instanceTypeSettings;
    private final Map<String, String> instanceTypeSettingSchemas;

    LoadedBackend(ProxmoxBackendFactory factory, ClassLoader loader, String origin) {
        this.factory = factory;
        this.loader = loader;
        this.origin = origin;
        this.name = inContext(factory::name);
        this.description = inContext(factory::description);
        this.options = List.copyOf(inContext(factory::options));
        this.instanceTypeSettings = List.copyOf(inContext(factory::instanceTypeSettings));
        this.instanceTypeSettingSchemas = Map.copyOf(inContext(factory::instanceTypeSettingSchemas));
    }

    /** Keys an {@code --instance-types} entry may carry for this backend. */
    public List<String> instanceTypeSettings() {
        return instanceTypeSettings;
    }

    /** The JSON Schema, as text, of the value of each {@link #instanceTypeSettings()} key that has one. */
    public Map<String, String> instanceTypeSettingSchemas() {
        return instanceTypeSettingSchemas;
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    /** Where the factory was found: {@code the class path}, or the plugin jar or directory. */
    public String origin() {
        return origin;
    }

    public List<BackendOption> options() {
        return options;
    }

    public Optional<BackendOption> option(String optionName) {
        return options.stream().filter(o -> o.name().equals(optionName)).findFirst();
    }

    public boolean claimsAuto(BackendOptions values) {
        return inContext(() -> factory.claimsAuto(values));
    }

    public Optional<String> autoHint() {
        return inContext(factory::autoHint);
    }

    /** @throws IllegalArgumentException naming the bad option */
    public void validate(BackendOptions values) {
        inContext(() -> {
            factory.validate(values);
            return null;
        });
    }

    public List<Offering> defaultOfferings(BackendOptions values, List<Offering> generated) {
        return List.copyOf(inContext(() -> factory.defaultOfferings(values, generated)));
    }

    /** Creates the backend; the result runs every call in the plugin's context. */
    public ProxmoxBackend create(BackendContext context) throws Exception {
        ProxmoxBackend backend = ThreadContextClassLoader.call(loader, () -> factory.create(context));
        return new ClassLoaderSafeBackend(backend, loader);
    }

    /** {@code preflight}: the backend's checks, reported; run in the plugin's context. */
    public PreflightReport preflight(BackendContext context, PreflightRequest request) throws Exception {
        return ThreadContextClassLoader.call(loader, () -> factory.preflight(context, request));
    }

    private <T> T inContext(Supplier<T> call) {
        return ThreadContextClassLoader.<T, RuntimeException>call(loader, call::get);
    }

    @Override
    public String toString() {
        return name + " (" + origin + ")";
    }
}
