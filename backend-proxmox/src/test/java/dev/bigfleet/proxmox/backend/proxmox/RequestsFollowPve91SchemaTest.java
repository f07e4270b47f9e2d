package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.pvesim.Pve91ApiSchema;
import dev.bigfleet.proxmox.pvesim.RecordedRequest;
import dev.bigfleet.proxmox.pvesim.StorageSpec;
import dev.bigfleet.proxmox.pvesim.TemplateSpec;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Every request the backend's client sends, checked against Proxmox VE 9.1's published API schema
 * ({@link Pve91ApiSchema}): a run on the simulator that startup's preflight, a Create of a type with
 * new data disks, UEFI with EFI and TPM state disks, a static address for the template's cloud-init
 * drive, a second NIC, a PCI mapping, a bigger boot disk, tags and a description, its bootstrap
 * through the guest agent, its Delete, and a seed ISO's upload, listing and removal; then each
 * recorded call's parameters (path parameters too) exist for its endpoint and pass 9.1's type,
 * enumeration, range, length, pattern and format checks, property strings' keys among the format's.
 */
class RequestsFollowPve91SchemaTest {
    private static final String ID = "proxmox/OnDemand/pve.small/pve1/000";
    private static final String NETWORKS = "[{\"bridge\": \"vmbr0\", \"addresses\": {\"cidr\": \"10.20.0.0/24\","
            + " \"range\": \"10.20.0.10-10.20.0.12\", \"gateway\": \"10.20.0.1\", \"dns\": [\"10.20.0.2\"]}},"
            + " {\"bridge\": \"vmbr0\", \"vlan\": 20}]";
    private static final InstanceTypeCatalog CATALOG = SimulatorBackends.catalog(SimulatorBackends.type(
            "pve.small",
            Map.of(
                    "disks", "[{\"storage\": \"local-lvm\", \"size_gib\": 10, \"ssd\": true, \"discard\": true}]",
                    "bios", "\"ovmf\"",
                    "efi_storage", "\"local-lvm\"",
                    "tpm", "\"local-lvm\"",
                    "networks", NETWORKS,
                    "pci", "[{\"mapping\": \"gpu-a100\", \"pcie\": true}]",
                    "disk_gib", "40",
                    "tags", "[\"team-a\"]",
                    "numa", "true",
                    "onboot", "true")));

    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
    }

    @Test
    void everyRequestOfARepresentativeRunPasses91sParameterChecks() throws Exception {
        List<RecordedRequest> requests;
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                .pool(POOL)
                .storage(StorageSpec.local())
                .storage(StorageSpec.localLvm())
                .storage(StorageSpec.cephRbd())
                .template(
                        TemplateSpec.of(TestingProxmoxCluster.TEMPLATE, "pve1").withCloudInit())
                .customize(b -> b.pciMapping("gpu-a100", "pve1", 1))
                .start()) {
            try (ProxmoxBackend backend = SimulatorBackends.backend(
                    cluster,
                    "proxmox",
                    List.of("pve1", "pve2"),
                    CATALOG,
                    List.of(new Offering("pve.small", "pve1", CapacityType.ON_DEMAND, 1, Map.of(), Map.of())),
                    Map.of(),
                    new CountingRecorder())) {
                CreatedVm created = backend.cloneAndStart(
                        new CloneSpec(ID, CATALOG.find("pve.small").orElseThrow(), "pve1", Map.of()), forMachine(ID));
                VmTarget target = new VmTarget(ID, created.node(), created.vmid());
                backend.applyBootstrap(
                        new BootstrapSpec(target, "cluster-1", "#!/bin/sh\nexit 0\n".getBytes(StandardCharsets.UTF_8)),
                        forMachine(ID));
                backend.destroy(target, forMachine(ID));

                PveClient api = ((ProxmoxApiBackend) backend).api();
                TaskWaiter tasks = new TaskWaiter(api);
                tasks.await(
                        api.upload("pve1", "local", "iso", "bigfleet-seed-schema.iso", new byte[4096]),
                        "upload",
                        forMachine(ID));
                assertThat(api.storageContent("pve1", "local", "iso")).isNotEmpty();
                tasks.await(
                        api.deleteVolume("pve1", "local", "local:iso/bigfleet-seed-schema.iso"),
                        "delete",
                        forMachine(ID));
                api.privileges("/vms/" + created.vmid());
            }
            requests = cluster.simulator().requests();
        }

        Pve91ApiSchema schema = Pve91ApiSchema.load();
        List<String> problems = new ArrayList<>();
        Set<String> configKeys = new TreeSet<>();
        Set<String> calls = new TreeSet<>();
        for (RecordedRequest r : requests) {
            problems.addAll(schema.problems(r));
            calls.add(r.method() + " " + r.path().replaceAll("/\\d{3,}(?=/|$)", "/{vmid}"));
            if (r.path().matches("/nodes/[^/]+/qemu/\\d+/config") && !r.method().equals("GET")) {
                configKeys.addAll(r.params().keySet());
            }
        }
        assertThat(calls)
                .as("the run covers what it claims")
                .contains(
                        "POST /nodes/pve1/qemu/{vmid}/clone",
                        "PUT /nodes/pve1/qemu/{vmid}/resize",
                        "POST /nodes/pve1/qemu/{vmid}/status/start",
                        "POST /nodes/pve1/qemu/{vmid}/status/stop",
                        "POST /nodes/pve1/qemu/{vmid}/agent/ping",
                        "POST /nodes/pve1/qemu/{vmid}/agent/file-write",
                        "POST /nodes/pve1/qemu/{vmid}/agent/exec",
                        "GET /nodes/pve1/qemu/{vmid}/agent/exec-status",
                        "DELETE /nodes/pve1/qemu/{vmid}",
                        "POST /nodes/pve1/storage/local/upload",
                        "GET /nodes/pve1/storage/local/content",
                        "DELETE /nodes/pve1/storage/local/content/local:iso/bigfleet-seed-schema.iso",
                        "GET /access/permissions",
                        "GET /cluster/resources",
                        "GET /pools/" + POOL);
        assertThat(configKeys)
                .as("the config updates cover what they claim")
                .contains(
                        "scsi1",
                        "efidisk0",
                        "tpmstate0",
                        "bios",
                        "ipconfig0",
                        "nameserver",
                        "net1",
                        "hostpci0",
                        "tags",
                        "description");
        assertThat(problems)
                .as("requests that PVE " + schema.version() + "'s schema refuses")
                .isEmpty();
    }
}
