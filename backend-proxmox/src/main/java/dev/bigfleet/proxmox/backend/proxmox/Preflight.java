package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.StorageStatus;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.PreflightReport;
import dev.bigfleet.proxmox.spi.PreflightRequest;
import dev.bigfleet.proxmox.spi.PreflightRow;
import dev.bigfleet.proxmox.spi.PreflightStep;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code preflight}: the checks {@link StartupCheck} makes, each reported in its own column instead
 * of stopping startup at the first problem. The cluster as a whole (the API and the token, its
 * version, the nodes, the pool), then per (instance type, node) pair of the offerings: the
 * template, the storages the clone reads and writes, their free space, the bridges (and CPU model
 * and disk size), the token's privileges and the Proxmox VE version. A pair whose checks pass is
 * then tried live ({@link LivePreflight}) when asked.
 */
final class Preflight {
    static final List<String> STATIC_STEPS =
            List.of("template", "storage", "free space", "bridge", "privileges", "pve version");

    private final ProxmoxApiBackend backend;
    private final PveClient api;
    private final ProxmoxSettings settings;

    Preflight(ProxmoxApiBackend backend, ProxmoxSettings settings) {
        this.backend = backend;
        this.api = backend.api();
        this.settings = settings;
    }

    PreflightReport run(BackendContext context, PreflightRequest request, Supplier<LivePreflight> live) {
        Redactor redactor = backend.redactor();
        List<PreflightStep> cluster = new ArrayList<>();
        List<Pair> pairs = pairs(context);
        String version;
        List<ClusterResource> listed;
        try {
            version = api.version();
            listed = api.allResources();
            cluster.add(PreflightStep.pass("api", settings.apiRoot() + " answers; the token is accepted"));
        } catch (PveApiException e) {
            cluster.add(PreflightStep.fail(
                    "api", redactor.scrub(StartupCheck.startupFailure(e).getMessage())));
            return new PreflightReport(
                    cluster,
                    pairs.stream()
                            .map(p -> skippedRow(p, "the API did not answer"))
                            .toList());
        }
        int major = StartupCheck.majorVersion(version);
        PreflightStep versionStep = major >= 8
                ? PreflightStep.pass("pve version", version)
                : PreflightStep.fail("pve version", version + ": this provider needs Proxmox VE 8.x or 9.x");
        cluster.add(versionStep);
        cluster.add(step(
                "nodes",
                () -> {
                    StartupCheck.checkPlacement(context);
                    StartupCheck.checkNodes(context.nodes(), listed);
                    return String.join(", ", context.nodes()) + " are nodes of this cluster";
                },
                redactor));
        settings.pool()
                .ifPresent(pool -> cluster.add(step(
                        "pool",
                        () -> {
                            new StartupCheck(api).checkPool(pool);
                            return "pool " + pool + " exists";
                        },
                        redactor)));

        if (request.live() && cluster.stream().noneMatch(PreflightStep::failed)) {
            cluster.add(live.get().sweepLeftovers());
        }
        if (cluster.stream().noneMatch(PreflightStep::failed)
                && !(request.live() && live.get().cancelled())) {
            cluster.add(step("template drift", () -> drift(listed), redactor));
        }
        TemplateResolver resolver = new TemplateResolver(api, settings);
        PlacementCheck check = new PlacementCheck(api, backend.storageStatus());
        List<PreflightRow> rows = new ArrayList<>();
        for (Pair pair : pairs) {
            List<PreflightStep> steps = new ArrayList<>();
            Optional<Placement> placed = Optional.empty();
            try {
                Placement p = resolver.choose(pair.type(), pair.node(), listed);
                placed = Optional.of(p);
                steps.add(PreflightStep.pass("template", describe(p)));
            } catch (RuntimeException e) {
                steps.add(PreflightStep.fail("template", redactor.scrub(String.valueOf(e.getMessage()))));
            }
            if (placed.isEmpty()) {
                for (String name : STATIC_STEPS.subList(1, STATIC_STEPS.size() - 1)) {
                    steps.add(PreflightStep.skip(name, "no template"));
                }
            } else {
                Placement p = placed.get();
                String where = resolver.where(pair.type(), pair.node());
                steps.add(step(
                        "storage",
                        () -> {
                            check.storage(p, where, TemplateResolver.modeSource(pair.type()));
                            check.drives(p);
                            return storages(p);
                        },
                        redactor));
                steps.add(step("free space", () -> freeSpace(p), redactor));
                steps.add(step(
                        "bridge",
                        () -> {
                            check.shape(p);
                            return (p.shape().networks().isEmpty()
                                            ? "the template's bridge"
                                            : bridges(p, check.sdnPaths(p)) + " bridge")
                                    + " on " + p.node()
                                    + p.shape()
                                            .cpuType()
                                            .map(c -> ", CPU model " + c)
                                            .orElse("");
                        },
                        redactor));
                steps.add(step("privileges", () -> privileges(p, major, check.sdnPaths(p)), redactor));
            }
            steps.add(versionStep);
            PreflightRow row = new PreflightRow(pair.type().name(), pair.node(), steps);
            if (request.liveFor(pair.type().name(), pair.node())) {
                row = row.ok() && placed.isPresent()
                        ? live.get().run(placed.get(), row)
                        : withLiveSkipped(row, "the checks above failed");
            }
            rows.add(row);
        }
        return new PreflightReport(cluster, rows);
    }

    /**
     * The provider's VMs cloned from an older config of their template: each VM's recorded template
     * digest against the template's config now (one read per template).
     */
    private String drift(List<ClusterResource> listed) {
        ManagedInventory inventory = backend.parts().inventory();
        Map<Long, Optional<String>> digests = new java.util.HashMap<>();
        List<String> drifted = new ArrayList<>();
        List<ManagedVm> vms;
        try {
            vms = inventory.describe();
        } catch (BackendException e) {
            throw new IllegalStateException("list the provider's VMs: " + e.getMessage(), e);
        }
        for (ManagedVm m : vms) {
            Optional<TemplateRef> ref = m.machineId().flatMap(id -> inventory.templateOf(m.vmid(), id));
            if (ref.isEmpty()) {
                continue;
            }
            Optional<String> now = digests.computeIfAbsent(
                    ref.get().vmid(),
                    v -> listed.stream()
                            .filter(r -> r.vmid() == v)
                            .findFirst()
                            .flatMap(r -> api.config(r.node(), v).entry("digest")));
            if (now.isPresent() && !now.get().equalsIgnoreCase(ref.get().digest())) {
                drifted.add(
                        m.node() + "/" + m.vmid() + " (template " + ref.get().vmid() + ")");
            }
        }
        return drifted.isEmpty()
                ? "no VM of this provider was cloned from an older config of its template"
                : drifted.size() + " VM(s) cloned from an older config of their template, which changed since: "
                        + String.join(", ", drifted);
    }

    private record Pair(InstanceType type, String node) {}

    private static List<Pair> pairs(BackendContext context) {
        List<Pair> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Offering o : context.offerings()) {
            Optional<InstanceType> type = context.catalog().find(o.instanceType());
            if (type.isPresent() && seen.add(o.instanceType() + "@" + o.zone())) {
                out.add(new Pair(type.get(), o.zone()));
            }
        }
        return out;
    }

    private static PreflightRow skippedRow(Pair pair, String why) {
        return new PreflightRow(
                pair.type().name(),
                pair.node(),
                STATIC_STEPS.stream().map(s -> PreflightStep.skip(s, why)).toList());
    }

    private static PreflightRow withLiveSkipped(PreflightRow row, String why) {
        List<PreflightStep> steps = new ArrayList<>(row.steps());
        LivePreflight.STEPS.forEach(s -> steps.add(PreflightStep.skip(s, why)));
        return new PreflightRow(row.instanceType(), row.node(), steps);
    }

    private static String describe(Placement p) {
        Template t = p.template();
        String agent = t.agentEnabled()
                ? ""
                : "; the template has no guest agent enabled (clones get agent=1: its image must run"
                        + " qemu-guest-agent)";
        return p.mode().toString().toLowerCase(java.util.Locale.ROOT) + " clone of " + t.vmid() + " on " + t.node()
                + agent;
    }

    /** The type's bridges, a VNet with its zone: {@code vmbr0, tenant1 (SDN VNet in zone evpn1)}. */
    private static String bridges(Placement p, SdnPaths sdn) {
        return p.shape().networks().stream()
                .map(NetworkSpec::bridge)
                .distinct()
                .map(b -> sdn.vnetZone(b)
                        .map(z -> b + " (SDN VNet in zone " + z + ")")
                        .orElse(b))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private static String storages(Placement p) {
        Set<String> used = new LinkedHashSet<>();
        p.template().disks().forEach(d -> used.add(d.storage()));
        used.addAll(p.writes().keySet());
        return String.join(", ", used) + " active on " + p.node();
    }

    private String freeSpace(Placement p) {
        Map<String, Long> writes = p.writes();
        Map<String, Long> drives = p.shape().newDriveBytes(p.template());
        if (writes.isEmpty() && drives.isEmpty()) {
            return "a " + p.mode().toString().toLowerCase(java.util.Locale.ROOT) + " clone writes nothing up front";
        }
        List<String> out = new ArrayList<>();
        String clone = "a " + p.mode() + " clone of template " + p.template().vmid() + " for "
                + p.type().name();
        for (Map.Entry<String, Long> w : writes.entrySet()) {
            out.add(fits(p.copyNode(), w.getKey(), w.getValue(), clone, "a clone needs"));
        }
        for (Map.Entry<String, Long> w : drives.entrySet()) {
            out.add(fits(
                    p.node(),
                    w.getKey(),
                    w.getValue(),
                    "the new drives of " + p.type().name(),
                    "new drives need"));
        }
        return String.join("; ", out);
    }

    /** One storage's line of the free-space step, or the failure when {@code bytes} do not fit. */
    private String fits(String node, String storage, long bytes, String what, String needs) {
        StorageStatus s = backend.storageStatus()
                .get(node)
                .find(storage)
                .filter(StorageStatus::usable)
                .orElseThrow(
                        () -> new IllegalArgumentException("storage " + storage + " is not active on node " + node));
        if (s.avail() < bytes) {
            throw new IllegalArgumentException("storage " + storage + " on node " + node + " has "
                    + StorageGate.gib(s.avail()) + " free, " + what + " needs " + StorageGate.gib(bytes));
        }
        return storage + " " + StorageGate.gib(s.avail()) + " free, " + needs + " " + StorageGate.gib(bytes);
    }

    private String privileges(Placement p, int major, SdnPaths sdn) {
        Map<String, Set<PrivilegeNeed>> need = PrivilegeCheck.required(
                new PlacementPlan(List.of(p)), settings.pool(), List.of(p.node()), major >= 9, sdn);
        List<String> missing;
        try {
            missing = new PrivilegeCheck(api).missing(need);
        } catch (PveApiException e) {
            if (e.isStatus(501) || e.isStatus(404)) {
                return "this Proxmox VE cannot list the token's privileges; not checked";
            }
            throw e;
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("--proxmox-token-id: the API token lacks " + String.join(", ", missing)
                    + " (grant them to the token and its user; see Token privileges in docs/proxmox/storage.md)");
        }
        int count = need.values().stream().mapToInt(Set::size).sum();
        return count + " privileges on " + need.size() + " paths held";
    }

    private static PreflightStep step(String name, Supplier<String> check, Redactor redactor) {
        try {
            return PreflightStep.pass(name, check.get());
        } catch (PveApiException e) {
            return PreflightStep.fail(
                    name, redactor.scrub(StartupCheck.failure("", e).getMessage()));
        } catch (RuntimeException e) {
            return PreflightStep.fail(name, redactor.scrub(String.valueOf(e.getMessage())));
        }
    }
}
