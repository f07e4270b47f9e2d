package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.TagList;
import dev.bigfleet.proxmox.spi.BackendException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Hands out the static addresses of the NICs that have an {@link AddressPool}: for each, the lowest
 * address of its range that no VM of the cluster carries as a tag ({@link StaticAddress#tag}) and
 * that this process has not just handed to another machine whose VM does not show it yet. The
 * cluster is the record: a restarted process, or another replica, reads what is taken from the
 * tags. Two processes that pick the same address at once both write it; each then reads the
 * listing again and, seeing another VM with its address, picks anew ({@link #conflicts}): the later
 * writer always sees the earlier one, so at most both move, and no two VMs keep one address.
 */
final class AddressAllocator {
    /** Addresses handed out by this process, per machine, until its VM is gone. */
    private final Map<String, Set<String>> handedOut = new HashMap<>();

    /** The addresses VMs carry as tags, per VMID, from a listing of the cluster's VMs. */
    static Map<Long, Set<String>> taken(List<ClusterResource> listing) {
        Map<Long, Set<String>> out = new HashMap<>();
        for (ClusterResource r : listing) {
            List<String> addresses = r.tags().suffixesOf(StaticAddress.TAG);
            if (!addresses.isEmpty()) {
                out.put(r.vmid(), new HashSet<>(addresses));
            }
        }
        return out;
    }

    /** The tags of {@code addresses}, beside {@code tags}. */
    static TagList tagged(TagList tags, List<StaticAddress> addresses) {
        TagList out = tags;
        for (StaticAddress a : addresses) {
            out = out.with(a.tag());
        }
        return out;
    }

    /**
     * An address for each NIC of {@code nics} that has a pool, kept for {@code machineId}: the lowest
     * one neither a VM other than {@code vmid} carries ({@code taken}) nor handed to another machine.
     *
     * @throws BackendException naming the NIC's entry when its pool has no address left
     */
    synchronized List<StaticAddress> pick(
            String machineId, long vmid, List<NetworkSpec> nics, Map<Long, Set<String>> taken) throws BackendException {
        Set<String> unavailable = new HashSet<>();
        taken.forEach((id, addresses) -> {
            if (id != vmid) {
                unavailable.addAll(addresses);
            }
        });
        handedOut.forEach((machine, addresses) -> {
            if (!machine.equals(machineId)) {
                unavailable.addAll(addresses);
            }
        });
        List<StaticAddress> out = new ArrayList<>();
        for (int i = 0; i < nics.size(); i++) {
            Optional<AddressPool> pool = nics.get(i).addresses();
            if (pool.isEmpty()) {
                continue;
            }
            int index = i;
            String address = pool.get()
                    .pick(unavailable)
                    .orElseThrow(() -> new BackendException("networks[" + index + "]: addresses: every one of the "
                            + pool.get().size() + " addresses of " + pool.get().range() + " is taken; widen the range"
                            + " or free some"));
            unavailable.add(address);
            out.add(pool.get().assign("net" + i, address));
        }
        handedOut.put(
                machineId,
                new HashSet<>(out.stream().map(StaticAddress::address).toList()));
        return out;
    }

    /** Keeps {@code addresses} for {@code machineId}: its VM already carries them (a Create taken over). */
    synchronized void keep(String machineId, List<StaticAddress> addresses) {
        handedOut.put(
                machineId,
                new HashSet<>(addresses.stream().map(StaticAddress::address).toList()));
    }

    /** The machine's VM is gone (or was never made): its addresses may go to others once no VM shows them. */
    synchronized void release(String machineId) {
        handedOut.remove(machineId);
    }

    /** Of {@code mine}, the addresses a VM other than {@code vmid} also carries in {@code taken}. */
    static Set<String> conflicts(List<StaticAddress> mine, long vmid, Map<Long, Set<String>> taken) {
        Set<String> out = new HashSet<>();
        taken.forEach((id, addresses) -> {
            if (id != vmid) {
                mine.stream()
                        .map(StaticAddress::address)
                        .filter(addresses::contains)
                        .forEach(out::add);
            }
        });
        return out;
    }
}
