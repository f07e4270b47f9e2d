package dev.bigfleet.proxmox.spi;

import dev.bigfleet.proxmox.api.Offering;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Creates a backend. Implementations are found with {@link java.util.ServiceLoader}: a jar lists its
 * factory in {@code META-INF/services/dev.bigfleet.proxmox.spi.ProxmoxBackendFactory}, is dropped in
 * {@code --plugin-dir} (or put on the class path) and selected with {@code --proxmox-backend
 * <name()>}.
 *
 * <p>A plugin runs in a class loader of its own that sees only this SPI, the {@code api} domain and
 * SLF4J from the host, so it brings every other library it uses, in any version. The host calls the
 * factory and the backend with the thread context class loader set to the plugin's.
 *
 * <p>Startup calls, in this order: {@link #spiVersion()} (the plugin is refused unless the host
 * speaks it), {@link #name()}, {@link #options()}; once the backend is selected {@link
 * #validate(BackendOptions)}, {@link #defaultOfferings} when no offerings file is given, and {@link
 * #create(BackendContext)}.
 */
public interface ProxmoxBackendFactory {
    /**
     * The SPI version this factory was compiled against. Implement it as {@code return
     * BackendSpi.VERSION;}: the constant is compiled into the plugin.
     */
    int spiVersion();

    /** The name operators select this backend by; lower case, no spaces. */
    String name();

    /** One line for {@code --help}. */
    default String description() {
        return "";
    }

    /**
     * Every option the backend reads. A key given with {@code --backend-opt} or in {@code
     * --backend-config} that is not declared here stops startup, naming the nearest declared one.
     */
    default List<BackendOption> options() {
        return List.of();
    }

    /**
     * Keys an {@code --instance-types} entry may carry for this backend, beside {@code vcpu}, {@code
     * memory_mib} and {@code template_vmid}; their values reach it as JSON text in {@link
     * dev.bigfleet.proxmox.api.InstanceType#settings()}. Any other key stops startup, naming the
     * nearest known one.
     */
    default List<String> instanceTypeSettings() {
        return List.of();
    }

    /**
     * The JSON Schema (draft 2020-12) of the value of each {@link #instanceTypeSettings()} key, as JSON
     * text with a {@code title} and a {@code description} (on nested properties too). The provider
     * checks every {@code --instance-types} entry against it before anything else reads the file, and
     * publishes it for editors. A key without a schema here accepts any JSON value.
     */
    default Map<String, String> instanceTypeSettingSchemas() {
        return Map.of();
    }

    /**
     * Whether {@code --proxmox-backend auto} picks this backend for these options (the real backend
     * claims it when an API URL is set). Options are those of this backend's declared flags that the
     * operator set.
     */
    default boolean claimsAuto(BackendOptions options) {
        return false;
    }

    /** What makes {@code auto} pick this backend, for the error when none is picked ("set --x"). */
    default Optional<String> autoHint() {
        return Optional.empty();
    }

    /**
     * Checks the options before anything starts, without talking to the substrate.
     *
     * @throws IllegalArgumentException with a one-line message naming the bad option (use {@link
     *     BackendOptions#where}), never quoting a secret value
     */
    default void validate(BackendOptions options) {}

    /**
     * Offerings this backend adds to the generated default ones (none is added when the operator
     * gives an offerings file). The fake adds the offering whose Creates fail in fault mode.
     *
     * @param generated the default offerings the provider generated
     */
    default List<Offering> defaultOfferings(BackendOptions options, List<Offering> generated) {
        return List.of();
    }

    /**
     * Builds the backend, validating its own settings and, for a real substrate, that it is reachable
     * and configured as the options say.
     *
     * @throws IllegalArgumentException with a one-line message naming the bad setting
     * @throws Exception any other failure to start, reported as such
     */
    ProxmoxBackend create(BackendContext context) throws Exception;

    /**
     * {@code preflight}: every check {@link #create} makes, each reported instead of stopping at the
     * first problem, and with {@link PreflightRequest#live()} the guest side tried on one VM per
     * (instance type, node) pair, which is destroyed again whatever happens (also when the thread is
     * interrupted). A backend without a substrate to check has no preflight.
     *
     * @throws UnsupportedOperationException when this backend has no preflight
     * @throws IllegalArgumentException with a one-line message naming a bad setting that stops even
     *     the checks (for example an unreadable token file)
     */
    default PreflightReport preflight(BackendContext context, PreflightRequest request) throws Exception {
        throw new UnsupportedOperationException("the " + name() + " backend has no preflight");
    }
}
