package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.TagList;
import dev.bigfleet.proxmox.backend.proxmox.client.VmConfig;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.ManagedVm;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This provider's VMs as the cluster lists them. A pass is one {@code GET /cluster/resources};
 * a VM's config (for its description) is read only the first time its VMID shows up with the
 * listing facts it has now, so a pass over an unchanged inventory costs one call whatever its size.
 */
final class ManagedInventory {
    private static final Logger log = LoggerFactory.getLogger(ManagedInventory.class);

    private final PveClient api;
    private final Markers markers;
    private final java.util.function.Supplier<Set<String>> pools;
    private final Map<Long, VmIdentity> known = new ConcurrentHashMap<>();

    /** @param pools the pools its VMs may be in; empty for any */
    ManagedInventory(PveClient api, Markers markers, java.util.function.Supplier<Set<String>> pools) {
        this.api = api;
        this.markers = markers;
        this.pools = pools;
    }

    /** Every VM of this provider label (and its pools, when set), with the machine id it carries. */
    List<ManagedVm> describe() throws BackendException {
        List<ClusterResource> listed;
        try {
            listed = api.vmResources();
        } catch (PveApiException e) {
            throw new BackendException("describe managed VMs: " + e.getMessage(), e);
        }
        List<ManagedVm> out = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        Set<String> inPools = pools.get();
        for (ClusterResource r : listed) {
            if (!r.isQemu()) {
                continue;
            }
            seen.add(r.vmid());
            if (!markers.candidate(r) || r.lock().filter("clone"::equals).isPresent()) {
                // an in-flight clone has no description yet; it is looked at once it is done
                continue;
            }
            if (!inPools.isEmpty() && r.pool().filter(inPools::contains).isEmpty()) {
                continue;
            }
            Optional<VmIdentity> identity = identify(r);
            if (identity.isEmpty()) {
                continue;
            }
            Optional<VmDescription> d = identity.get().description();
            if (d.isPresent() && d.get().provider().equals(markers.providerLabel())) {
                out.add(new ManagedVm(
                        Optional.of(d.get().machineId()),
                        r.node(),
                        r.vmid(),
                        r.running(),
                        d.get().binding()));
            } else if (d.isEmpty() && r.tags().contains(markers.providerTag())) {
                // tagged for this provider but the description is gone: still ours, with no machine
                out.add(new ManagedVm(Optional.empty(), r.node(), r.vmid(), r.running()));
            }
        }
        known.keySet().retainAll(seen);
        return out;
    }

    /** The template VM {@code vmid} of {@code machineId} was cloned from, as its description records it. */
    Optional<TemplateRef> templateOf(long vmid, String machineId) {
        VmIdentity identity = known.get(vmid);
        if (identity == null) {
            return Optional.empty();
        }
        return identity.description()
                .filter(d -> d.machineId().equals(machineId))
                .flatMap(VmDescription::template);
    }

    /** The templates the VMs known now were cloned from, one entry per VM that records one. */
    List<TemplateRef> templateRefs() {
        List<TemplateRef> out = new java.util.ArrayList<>();
        known.values()
                .forEach(i -> i.description().flatMap(VmDescription::template).ifPresent(out::add));
        return out;
    }

    /** The static addresses the description of VM {@code vmid} records for {@code machineId}, as last read. */
    List<String> addresses(long vmid, String machineId) {
        VmIdentity identity = known.get(vmid);
        if (identity == null) {
            return List.of();
        }
        return identity.description()
                .filter(d -> d.machineId().equals(machineId))
                .map(d -> d.addresses().stream().map(StaticAddress::cidr).toList())
                .orElse(List.of());
    }

    /**
     * The VM's description, from memory when its listing facts have not changed, else read from its
     * config. Empty when the VM vanished or its config is not readable yet.
     *
     * @throws BackendException when the config read fails for another reason: a pass that cannot
     *     tell whose a VM is must fail rather than report a live VM as unowned
     */
    Optional<VmIdentity> identify(ClusterResource r) throws BackendException {
        String key = key(r.tags(), r.name());
        VmIdentity cached = known.get(r.vmid());
        if (cached != null && cached.key().equals(key)) {
            return Optional.of(cached);
        }
        VmConfig config;
        try {
            config = api.config(r.node(), r.vmid());
        } catch (PveApiException e) {
            if (e.vmMissing() || e.isStatus(403)) {
                // destroyed (or moved out of the token's pool) since the listing
                known.remove(r.vmid());
                return Optional.empty();
            }
            throw new BackendException("read config of VM " + r.node() + "/" + r.vmid() + ": " + e.getMessage(), e);
        }
        VmIdentity identity = new VmIdentity(key, VmDescription.parse(config.description()));
        if (config.lock().filter("clone"::equals).isPresent()) {
            return Optional.of(identity);
        }
        known.put(r.vmid(), identity);
        log.debug(
                "identified VM {}/{}: {}",
                r.node(),
                r.vmid(),
                identity.description().map(VmDescription::machineId).orElse("no BigFleet description"));
        return Optional.of(identity);
    }

    /** What this process wrote into a VM, so the next pass need not read it back. */
    void remember(long vmid, TagList tags, VmDescription description) {
        known.put(vmid, new VmIdentity(key(tags, Optional.empty()), Optional.of(description)));
    }

    void forget(long vmid) {
        known.remove(vmid);
    }

    /** The machine this process last knew on that VMID, without any call. */
    Optional<String> knownMachine(long vmid) {
        return Optional.ofNullable(known.get(vmid))
                .flatMap(VmIdentity::description)
                .filter(d -> d.provider().equals(markers.providerLabel()))
                .map(VmDescription::machineId);
    }

    /** The listing facts an identity holds for: the tags, plus the name while no provider tag is set. */
    private String key(TagList tags, Optional<String> name) {
        return tags.wire() + "|" + (tags.contains(markers.providerTag()) ? "" : name.orElse(""));
    }

    int size() {
        return known.size();
    }
}
