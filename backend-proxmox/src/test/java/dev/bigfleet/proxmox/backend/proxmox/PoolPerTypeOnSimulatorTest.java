package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.pvesim.TokenPrivileges;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An instance type's own {@code pool}: its clones join it instead of {@code --proxmox-pool}, the
 * provider still finds them there, and the token's privileges are checked on that pool; a pool
 * that is missing, or one the token holds nothing on, stops startup naming the type.
 */
class PoolPerTypeOnSimulatorTest {
    private static final String GPU_POOL = "gpu";

    private TestingProxmoxCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
    }

    private static InstanceTypeCatalog catalog(String gpuPool) {
        return SimulatorBackends.catalog(
                SimulatorBackends.type("pve.small", Map.of()),
                SimulatorBackends.type("pve.gpu", Map.of("pool", "\"" + gpuPool + "\"")));
    }

    /** A token scoped to its pools, as the README sets one up: the provisioner's privileges on each. */
    private ProxmoxBackend start(InstanceTypeCatalog catalog, UnaryOperator<TokenPrivileges> privileges)
            throws Exception {
        TokenPrivileges p = TokenPrivileges.poolScoped(POOL)
                .grant("/pool/" + GPU_POOL, TokenPrivileges.PROVISIONER.toArray(new String[0]))
                .grant("/vms/" + TestingProxmoxCluster.TEMPLATE, "VM.Audit", "VM.Clone");
        cluster = TestingProxmoxCluster.builder()
                .pool(POOL)
                .customize(b -> b.pool(GPU_POOL).poolScopedToken(POOL).tokenPrivileges(privileges.apply(p)))
                .start();
        return SimulatorBackends.backend(
                cluster,
                "proxmox",
                List.of("pve1", "pve2"),
                catalog,
                List.of(
                        new Offering("pve.small", "pve1", CapacityType.ON_DEMAND, 2, Map.of(), Map.of()),
                        new Offering("pve.gpu", "pve2", CapacityType.ON_DEMAND, 2, Map.of(), Map.of())),
                Map.of(),
                new CountingRecorder());
    }

    private CreatedVm create(ProxmoxBackend backend, InstanceTypeCatalog catalog, String type, String node)
            throws Exception {
        String id = "proxmox/OnDemand/" + type + "/" + node + "/000";
        return backend.cloneAndStart(
                new CloneSpec(id, catalog.find(type).orElseThrow(), node, Map.of()), forMachine(id));
    }

    @Test
    void aTypesClonesJoinItsPoolAndTheProviderFindsThemThere() throws Exception {
        InstanceTypeCatalog catalog = catalog(GPU_POOL);
        try (ProxmoxBackend backend = start(catalog, p -> p)) {
            CreatedVm small = create(backend, catalog, "pve.small", "pve1");
            CreatedVm gpu = create(backend, catalog, "pve.gpu", "pve2");
            assertThat(cluster.simulator().vm((int) small.vmid()).orElseThrow().pool())
                    .isEqualTo(POOL);
            assertThat(cluster.simulator().vm((int) gpu.vmid()).orElseThrow().pool())
                    .isEqualTo(GPU_POOL);
            assertThat(backend.describeManaged())
                    .extracting(ManagedVm::machineId)
                    .containsExactlyInAnyOrder(
                            Optional.of("proxmox/OnDemand/pve.small/pve1/000"),
                            Optional.of("proxmox/OnDemand/pve.gpu/pve2/000"));
            backend.destroy(
                    new VmTarget("proxmox/OnDemand/pve.gpu/pve2/000", gpu.node(), gpu.vmid()),
                    forMachine("proxmox/OnDemand/pve.gpu/pve2/000"));
            assertThat(cluster.simulator().vm((int) gpu.vmid())).isEmpty();
        }
    }

    @Test
    void aMissingPoolOrOneTheTokenHoldsNothingOnStopsStartupNamingTheType() {
        assertThat(refused(catalog("ml"), p -> p))
                .startsWith("--instance-types \"pve.gpu\": pool: pool \"ml\" is missing or not visible to the token");
        assertThat(refused(catalog(GPU_POOL), p -> p.revoke("/pool/" + GPU_POOL, "VM.Allocate")))
                .startsWith("--proxmox-token-id: the API token lacks VM.Allocate on /pool/gpu");
        assertThat(refused(
                        SimulatorBackends.catalog(SimulatorBackends.type("pve.gpu", Map.of("pool", "\"a b\""))),
                        p -> p))
                .isEqualTo("--instance-types \"pve.gpu\": pool \"a b\" is not a pool id (e.g. \"gpu\")");
    }

    private String refused(InstanceTypeCatalog catalog, UnaryOperator<TokenPrivileges> privileges) {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
        return SimulatorBackends.refusal(() -> start(catalog, privileges));
    }
}
