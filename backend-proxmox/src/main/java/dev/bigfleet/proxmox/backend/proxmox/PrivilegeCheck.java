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
 *
 * <p>The guest agent's calls are checked as the running version checks them: before PVE 9 every
 * one needs {@code VM.Monitor}; on PVE 9 {@code ping} needs {@code VM.GuestAgent.Audit}, {@code
 * file-write} {@code VM.GuestAgent.FileWrite}, and {@code exec} with {@code exec-status} {@code
 * VM.GuestAgent.Unrestricted}, which also stands in for the other two (so a token holding only it
 * passes). A nocloud type's guest is never asked anything through its agent, so it needs none of
 * them.
 */
final class PrivilegeCheck {
    private static final Logger log = LoggerFactory.getLogger(PrivilegeCheck.class);

    private final PveClient api;

    PrivilegeCheck(PveClient api) {
        this.api = api;
    }

    /** What the agent bootstrap's calls (ping, file-write, exec and exec-status) need, by version. */
    static List<PrivilegeNeed> agentCalls(boolean guestAgentPrivileges) {
        if (!guestAgentPrivileges) {
            return List.of(PrivilegeNeed.of("VM.Monitor"));
        }
        String unrestricted = "VM.GuestAgent.Unrestricted";
        return List.of(
                PrivilegeNeed.anyOf("VM.GuestAgent.Audit", unrestricted),
                PrivilegeNeed.anyOf("VM.GuestAgent.FileWrite", unrestricted),
                PrivilegeNeed.of(unrestricted));
    }

    /**
     * Path to what is needed there, in the order it is checked.
     *
     * @param sdn where each NIC's bridge needs {@code SDN.Use}: a VNet's in its zone
     */
    static Map<String, Set<PrivilegeNeed>> required(
            PlacementPlan plan, Optional<String> pool, List<String> nodes, boolean guestAgentPrivileges, SdnPaths sdn) {
        Map<String, Set<PrivilegeNeed>> need = new LinkedHashMap<>();
        for (Placement p : plan.all()) {
            String vms = p.pool(pool).map(x -> "/pool/" + x).orElse("/vms");
            add(need, "/vms/" + p.template().vmid(), "VM.Audit", "VM.Clone");
            add(
                    need,
                    vms,
                    "VM.Allocate",
                    "VM.Audit",
                    "VM.Config.CPU",
                    "VM.Config.Memory",
                    "VM.Config.Options",
                    "VM.PowerMgmt");
            if (!p.bootstrap().nocloud()) {
                need.computeIfAbsent(vms, k -> new LinkedHashSet<>()).addAll(agentCalls(guestAgentPrivileges));
            }
            if (p.shape().diskGib().isPresent()) {
                add(need, vms, "VM.Config.Disk");
            }
            for (String storage : p.shape().newDriveBytes(p.template()).keySet()) {
                // the type's new drives: allocated on their storage, written as disks of the clone
                add(need, vms, "VM.Config.Disk");
                add(need, "/storage/" + storage, "Datastore.AllocateSpace");
            }
            if (!p.shape().networks().isEmpty()) {
                add(need, vms, "VM.Config.Network");
                for (NetworkSpec nic : p.shape().networks()) {
                    add(need, nic.sdnPath(sdn), "SDN.Use");
                }
                if (p.template().hasCloudInitDrive()
                        && p.shape().networks().stream()
                                .anyMatch(n -> n.addresses().isPresent())) {
                    // static addresses written as ipconfigN and nameserver for the cloud-init drive:
                    // qemu-server takes either privilege for them
                    need.computeIfAbsent(vms, k -> new LinkedHashSet<>())
                            .add(PrivilegeNeed.anyOf("VM.Config.Cloudinit", "VM.Config.Network"));
                }
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
                nic.bridge().ifPresent(b -> add(need, sdn.usePath(b, nic.tag()), "SDN.Use"));
            }
        }
        pool.ifPresent(p -> add(need, "/pool/" + p, "Pool.Audit"));
        for (Placement p : plan.all()) {
            p.shape().pool().ifPresent(x -> add(need, "/pool/" + x, "Pool.Audit"));
        }
        for (String n : nodes) {
            add(need, "/nodes/" + n, "Sys.Audit");
        }
        return need;
    }

    void check(Map<String, Set<PrivilegeNeed>> need) {
        for (Map.Entry<String, Set<PrivilegeNeed>> e : need.entrySet()) {
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
            for (PrivilegeNeed privilege : e.getValue()) {
                if (!privilege.heldIn(have)) {
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
    List<String> missing(Map<String, Set<PrivilegeNeed>> need) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Set<PrivilegeNeed>> e : need.entrySet()) {
            Set<String> have = api.privileges(e.getKey());
            for (PrivilegeNeed privilege : e.getValue()) {
                if (!privilege.heldIn(have)) {
                    out.add(privilege + " on " + e.getKey());
                }
            }
        }
        return out;
    }

    private static void add(Map<String, Set<PrivilegeNeed>> need, String path, String... privileges) {
        Set<PrivilegeNeed> onPath = need.computeIfAbsent(path, k -> new LinkedHashSet<>());
        for (String privilege : privileges) {
            onPath.add(PrivilegeNeed.of(privilege));
        }
    }
}
