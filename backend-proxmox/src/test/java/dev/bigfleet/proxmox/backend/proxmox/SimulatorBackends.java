package dev.bigfleet.proxmox.backend.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Backends built through the real factory against a {@link TestingProxmoxCluster} over HTTPS, and
 * the catalog, offerings and clone specs the backend's tests use.
 */
final class SimulatorBackends {
    static final String POOL = "bigfleet";
    static final String SECRET = TestingProxmoxCluster.SECRET;
    static final InstanceTypeCatalog CATALOG = InstanceTypeCatalog.builtIn(TestingProxmoxCluster.TEMPLATE);
    static final InstanceType SMALL = CATALOG.find("pve.small").orElseThrow();
    static final List<String> THREE_NODES = TestingProxmoxCluster.THREE_NODES;
    static final String TEMPLATE_TAG = TestingProxmoxCluster.TEMPLATE_TAG;

    private SimulatorBackends() {}

    /** One offering of 4 slots of {@code type} on each of the three nodes. */
    static List<Offering> onEachNode(String type) {
        return THREE_NODES.stream()
                .map(n -> new Offering(type, n, CapacityType.ON_DEMAND, 4, Map.of(), Map.of()))
                .toList();
    }

    /** The options a server would pass: the cluster's, and a short agent timeout. */
    static Map<String, String> options(TestingProxmoxCluster cluster) {
        Map<String, String> o = new LinkedHashMap<>(cluster.backendOptions());
        o.put("agent-timeout", "20s");
        return o;
    }

    static List<Offering> offerings() {
        return List.of(
                new Offering("pve.small", "pve1", CapacityType.ON_DEMAND, 4, Map.of(), Map.of()),
                new Offering("pve.small", "pve2", CapacityType.ON_DEMAND, 4, Map.of(), Map.of()));
    }

    static ProxmoxBackend backend(TestingProxmoxCluster cluster, String provider, ApiCallRecorder recorder)
            throws Exception {
        return backend(cluster, provider, Map.of(), recorder);
    }

    static ProxmoxBackend backend(
            TestingProxmoxCluster cluster, String provider, Map<String, String> overrides, ApiCallRecorder recorder)
            throws Exception {
        return backend(cluster, provider, List.of("pve1", "pve2"), CATALOG, offerings(), overrides, recorder);
    }

    static ProxmoxBackend backend(
            TestingProxmoxCluster cluster,
            String provider,
            List<String> nodes,
            InstanceTypeCatalog catalog,
            List<Offering> offerings,
            Map<String, String> overrides,
            ApiCallRecorder recorder)
            throws Exception {
        Map<String, String> o = options(cluster);
        o.putAll(overrides);
        o.values().removeIf(v -> v == null || v.isEmpty());
        return new ProxmoxApiBackendFactory()
                .create(new BackendContext(provider, nodes, catalog, offerings, BackendOptions.of(o), recorder));
    }

    /**
     * The message {@code start} refused to start a backend with: one line, naming no secret. Fails
     * when it started, or failed any other way.
     */
    static String refusal(Callable<ProxmoxBackend> start) {
        try (ProxmoxBackend b = start.call()) {
            throw new AssertionError("startup was not refused: " + b);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).doesNotContain("\n");
            Leaks.assertNoSecret(e.getMessage());
            return e.getMessage();
        } catch (Exception e) {
            throw new AssertionError("refused with the wrong exception", e);
        }
    }

    /** An instance type with backend settings, each value JSON text as the catalog file hands it over. */
    static InstanceType type(String name, Map<String, String> settings) {
        return new InstanceType(name, 2, 4096, TestingProxmoxCluster.TEMPLATE, settings);
    }

    static InstanceTypeCatalog catalog(InstanceType... types) {
        return new InstanceTypeCatalog(List.of(types));
    }

    static CloneSpec clone(String machineId, String zone) {
        return new CloneSpec(machineId, SMALL, zone, Map.of());
    }
}
