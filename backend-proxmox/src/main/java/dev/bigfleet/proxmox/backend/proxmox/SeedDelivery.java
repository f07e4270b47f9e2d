package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.TaskStatus;
import dev.bigfleet.proxmox.backend.proxmox.client.Upid;
import dev.bigfleet.proxmox.backend.proxmox.client.VmConfig;
import dev.bigfleet.proxmox.backend.proxmox.client.VmStatus;
import dev.bigfleet.proxmox.backend.proxmox.kube.WorkloadClusters;
import dev.bigfleet.proxmox.backend.proxmox.seed.NoCloudSeed;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Configure for a type whose bootstrap is a NoCloud seed ({@code "bootstrap": "nocloud"}): the blob
 * becomes the user-data of a seed image ({@link NoCloudSeed}: volume {@code cidata}, {@code
 * meta-data} with a fresh instance-id and the node's name as local-hostname), which is uploaded to
 * the type's {@code seed_storage} on the VM's node, attached as a CD-ROM, and booted: a stopped VM is
 * started, a running one powered off and on, so its first boot after the Configure reads the seed.
 * The Configure then waits for the node to be Ready through the workload cluster's Kubernetes API.
 * Whatever happens, the seed is ejected and deleted before the Configure returns: it holds the join
 * secret. (A crash in between leaves it to {@link SeedVolumes#sweep}.)
 *
 * <p>No step needs the guest agent: guests without one, without a shell, or whose agent refuses
 * {@code guest-exec} are configured the same way.
 */
final class SeedDelivery {
    /** Where the readiness wait stops before the transition's deadline, so its failure says why. */
    static final Duration READY_MARGIN = Duration.ofSeconds(3);
    /** Tags a VM whose guest booted a seed: it is never configured again. */
    static final String SEEDED = "bigfleet-seeded";
    /** The CD-ROM slots a seed may take, in the order tried: after the template's own drives. */
    static final List<String> DRIVES = List.of("ide3", "ide1", "ide0", "sata5", "sata4", "sata3", "ide2");

    private static final Logger log = LoggerFactory.getLogger(SeedDelivery.class);

    private final PveClient api;
    private final TaskWaiter tasks;
    private final PowerControl power;
    private final SeedVolumes seeds;
    private final WorkloadClusters clusters;

    SeedDelivery(PveClient api, TaskWaiter tasks, PowerControl power, SeedVolumes seeds, WorkloadClusters clusters) {
        this.api = api;
        this.tasks = tasks;
        this.power = power;
        this.seeds = seeds;
        this.clusters = clusters;
    }

    /** The Kubernetes node a VM of {@code instanceType} for {@code machineId} joins as: its name, lower-cased. */
    static String nodeName(String instanceType, String machineId) {
        return Markers.vmName(instanceType, machineId).toLowerCase(Locale.ROOT);
    }

    void deliver(
            OwnedVm vm,
            String instanceType,
            String clusterId,
            String seedStorage,
            byte[] blob,
            OperationContext context)
            throws BackendException {
        if (!clusters.reaches(clusterId)) {
            throw new BackendException("no kubeconfig for cluster " + clusterId
                    + " (--cluster-kubeconfig or --cluster-kubeconfig-dir): a nocloud machine's node is waited for"
                    + " through its cluster's API");
        }
        String node = nodeName(instanceType, vm.machineId());
        VmConfig config = unseeded(vm);
        SeedVolumes.Seed seed = seeds.claim(seedStorage, vm.vmid(), context.operationId());
        Optional<String> drive = Optional.empty();
        boolean booted = false;
        try {
            Optional<String> network = NetworkConfig.render(
                    VmDescription.parse(config.description())
                            .map(VmDescription::addresses)
                            .orElse(List.of()),
                    config);
            drive = Optional.of(
                    stage(vm, config, seed, new NoCloudSeed(instanceId(vm, context), node, blob, network), context));
            boot(vm, context);
            booted = true;
            clusters.waitReady(clusterId, node, context.deadline().minus(READY_MARGIN));
            log.info("node {} of VM {} is Ready in cluster {}", node, vm.ref(), clusterId);
        } catch (BackendException e) {
            if (booted) {
                // the guest booted with the secret: its node may be joining the cluster
                throw BackendException.afterBootstrapStarted(e.getMessage(), e.getCause());
            }
            throw e;
        } finally {
            remove(vm, seed, drive);
        }
    }

    /** A new instance-id for each Configure, so cloud-init treats the boot as a new instance and runs it. */
    private static String instanceId(OwnedVm vm, OperationContext context) {
        return "bigfleet-" + vm.vmid() + "-" + context.operationId();
    }

    /** Uploads {@code nocloud} as {@code seed} and attaches it to {@code vm}; returns the CD-ROM slot it took. */
    String stage(OwnedVm vm, VmConfig config, SeedVolumes.Seed seed, NoCloudSeed nocloud, OperationContext context)
            throws BackendException {
        upload(vm, seed, nocloud, context);
        return attach(vm, config, seed);
    }

    SeedVolumes seeds() {
        return seeds;
    }

    private void upload(OwnedVm vm, SeedVolumes.Seed seed, NoCloudSeed nocloud, OperationContext context)
            throws BackendException {
        String what = "upload seed image " + seed.volid() + " to node " + vm.node();
        Upid upid;
        try {
            upid = api.upload(
                    vm.node(),
                    seed.storage(),
                    "iso",
                    seed.fileName(),
                    nocloud.image(Instant.now()).toByteArray());
        } catch (PveApiException e) {
            throw new BackendException(what + ": " + e.getMessage(), e);
        }
        TaskStatus status = tasks.await(upid, what, context);
        if (!status.succeeded()) {
            throw new BackendException(what + ": task failed: " + status.failure());
        }
    }

    /**
     * Puts the seed in a free CD-ROM slot and tags the VM {@link #SEEDED} in the same config write;
     * returns the slot.
     */
    private String attach(OwnedVm vm, VmConfig config, SeedVolumes.Seed seed) throws BackendException {
        String what = "attach seed image " + seed.volid() + " to VM " + vm.ref();
        String drive = DRIVES.stream()
                .filter(d -> config.entry(d).map(this::isSeedOrEmpty).orElse(true))
                .findFirst()
                .orElseThrow(() -> new BackendException(what + ": no free CD-ROM slot among " + DRIVES));
        try {
            api.setConfig(
                    vm.node(),
                    vm.vmid(),
                    Map.of(
                            drive,
                            seed.volid() + ",media=cdrom",
                            "tags",
                            config.tags().with(SEEDED).wire()),
                    List.of());
            return drive;
        } catch (PveApiException e) {
            throw new BackendException(what + ": " + e.getMessage(), e);
        }
    }

    /**
     * The VM's config, unless its guest booted a seed before: its disk then holds what that first
     * Configure installed (a Talos machine keeps its first cluster's configuration), so a second join
     * could bring the node back into the cluster it was drained from. A nocloud machine is configured
     * once; a drained one is deleted, and its slot's next machine gets a fresh clone.
     */
    VmConfig unseeded(OwnedVm vm) throws BackendException {
        VmConfig config;
        try {
            config = api.config(vm.node(), vm.vmid());
        } catch (PveApiException e) {
            throw new BackendException("read the config of VM " + vm.ref() + ": " + e.getMessage(), e);
        }
        if (config.tags().contains(SEEDED)) {
            throw new BackendException("VM " + vm.ref() + " booted a seed before (tag " + SEEDED + "): a nocloud"
                    + " machine is configured once, since its disk keeps what its first bootstrap installed;"
                    + " delete the machine instead, and its slot gets a fresh clone");
        }
        return config;
    }

    /** A slot an earlier seed of this provider, or an empty CD-ROM drive, holds. */
    private boolean isSeedOrEmpty(String value) {
        String volume = value.split(",", 2)[0];
        boolean cdrom = value.contains("media=cdrom");
        int slash = volume.lastIndexOf('/');
        return cdrom && (volume.equals("none") || seeds.ours(slash < 0 ? volume : volume.substring(slash + 1)));
    }

    /** Starts the VM, or powers a running one off and on: either way the next boot reads the seed. */
    private void boot(OwnedVm vm, OperationContext context) throws BackendException {
        VmStatus status;
        try {
            status = api.currentStatus(vm.node(), vm.vmid());
        } catch (PveApiException e) {
            throw new BackendException("boot VM " + vm.ref() + " with its seed: " + e.getMessage(), e);
        }
        if (status.running()) {
            power.stop(vm.node(), vm.vmid(), context);
        }
        power.start(vm.node(), vm.vmid(), context);
    }

    /**
     * Ejects the seed (a CD-ROM's medium changes at once, also on a running VM) and deletes it, even
     * when the Configure was cancelled: within its own time limit, with the thread's interrupt put
     * back afterwards. A failure is logged; the sweep of the next reconcile pass removes what is left.
     */
    void remove(OwnedVm vm, SeedVolumes.Seed seed, Optional<String> drive) {
        boolean interrupted = Thread.interrupted();
        try {
            if (drive.isPresent()) {
                try {
                    api.setConfig(vm.node(), vm.vmid(), Map.of(drive.get(), "none,media=cdrom"), List.of());
                } catch (PveApiException e) {
                    log.warn("could not eject seed image {} from VM {}: {}", seed.volid(), vm.ref(), e.getMessage());
                }
            }
            seeds.delete(vm.node(), seed.storage(), seed.volid(), tasks);
        } finally {
            seeds.release(seed);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
