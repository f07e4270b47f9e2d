package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Startup: the token holds every privilege the placements need, read from {@code GET
 * /access/permissions} path by path. A missing one stops startup naming the privilege and the
 * path, instead of failing the first Create that needs it with a 403.
 */
final class PrivilegeCheck {
    private static final Logger log = LoggerFactory.getLogger(PrivilegeCheck.class);

    private final PveClient api;

    PrivilegeCheck(PveClient api) {
        this.api = api;
    }

    /** Path to the privileges needed there, in the order they are checked. */
    static Map<String, Set<String>> required(
            PlacementPlan plan, Optional<String> pool, List<String> nodes, boolean guestAgentPrivileges) {
        Map<String, Set<String>> need = new LinkedHashMap<>();
        String vms = pool.map(p -> "/pool/" + p).orElse("/vms");
        List<String> onClones = new ArrayList<>(List.of(
                "VM.Allocate", "VM.Audit", "VM.Config.CPU", "VM.Config.Memory", "VM.Config.Options", "VM.PowerMgmt"));
        onClones.addAll(
                guestAgentPrivileges
                        ? List.of("VM.GuestAgent.Audit", "VM.GuestAgent.FileWrite", "VM.GuestAgent.Unrestricted")
                        : List.of("VM.Monitor"));
        for (Placement p : plan.all()) {
            add(need, "/vms/" + p.template().vmid(), "VM.Audit", "VM.Clone");
            add(need, vms, onClones.toArray(new String[0]));
            if (p.shape().diskGib().isPresent()) {
                add(need, vms, "VM.Config.Disk");
            }
            if (p.shape().bridge().isPresent()) {
                add(need, vms, "VM.Config.Network");
                add(need, sdn(p.shape().bridge().get(), p.shape().vlan().map(String::valueOf)), "SDN.Use");
            }
            if (!p.shape().pci().isEmpty()) {
                // hostpciN and machine are hardware options; a mapped device also needs Mapping.Use on it
                add(need, vms, "VM.Config.HWType");
                for (String mapping : p.shape().mappings().keySet()) {
                    add(need, "/mapping/pci/" + mapping, "Mapping.Use");
                }
            }
            for (TemplateDisk d : p.template().disks()) {
                if (!d.cdrom()) {
                    add(
                            need,
                            "/storage/" + (p.full() ? p.cloneStorage().orElse(d.storage()) : d.storage()),
                            "Datastore.AllocateSpace");
                }
            }
            if (p.bootstrap().nocloud()) {
                // the seed: uploaded (AllocateTemplate), listed (Audit) and deleted (Allocate) on its
                // storage, and put in and taken out of a CD-ROM drive of the clone
                add(
                        need,
                        "/storage/" + p.bootstrap().seedStorage().orElseThrow(),
                        "Datastore.AllocateTemplate",
                        "Datastore.Audit",
                        "Datastore.Allocate");
                add(need, vms, "VM.Config.CDROM");
            }
            for (NicSpec nic : p.template().nics().values()) {
                nic.bridge().ifPresent(b -> add(need, sdn(b, nic.tag()), "SDN.Use"));
            }
        }
        pool.ifPresent(p -> add(need, "/pool/" + p, "Pool.Audit"));
        for (String n : nodes) {
            add(need, "/nodes/" + n, "Sys.Audit");
        }
        return need;
    }

    void check(Map<String, Set<String>> need) {
        for (Map.Entry<String, Set<String>> e : need.entrySet()) {
            Set<String> have;
            try {
                have = api.privileges(e.getKey());
            } catch (PveApiException x) {
                if (x.isStatus(501) || x.isStatus(404)) {
                    log.warn("this Proxmox VE cannot list the token's privileges; they are not checked at startup");
                    return;
                }
                throw StartupCheck.failure("--proxmox-token-id: read the token's privileges: ", x);
            }
            for (String privilege : e.getValue()) {
                if (!have.contains(privilege)) {
                    throw new IllegalArgumentException("--proxmox-token-id: the API token lacks " + privilege + " on "
                            + e.getKey() + " (grant it to the token and its user; see Token privileges in"
                            + " docs/proxmox/storage.md)");
                }
            }
        }
    }

    /**
     * The privileges of {@code need} the token lacks, as {@code "VM.Clone on /vms/9000"}; empty when
     * it holds them all.
     *
     * @throws PveApiException when the token's privileges cannot be read (a 501 or 404: this Proxmox
     *     VE cannot list them)
     */
    List<String> missing(Map<String, Set<String>> need) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : need.entrySet()) {
            Set<String> have = api.privileges(e.getKey());
            for (String privilege : e.getValue()) {
                if (!have.contains(privilege)) {
                    out.add(privilege + " on " + e.getKey());
                }
            }
        }
        return out;
    }

    private static String sdn(String bridge, Optional<String> tag) {
        return "/sdn/zones/localnetwork/" + bridge + tag.map(t -> "/" + t).orElse("");
    }

    private static void add(Map<String, Set<String>> need, String path, String... privileges) {
        need.computeIfAbsent(path, k -> new LinkedHashSet<>()).addAll(List.of(privileges));
    }
}
