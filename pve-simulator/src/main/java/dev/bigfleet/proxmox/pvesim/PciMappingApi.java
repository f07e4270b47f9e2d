package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /cluster/mapping/pci}: pve-manager's PCI resource mapping API over {@link PciMappings},
 * with its privileges ({@code Mapping.Modify} on {@code /mapping/pci} to create and delete, on
 * {@code /mapping/pci/<id>} to update; any of {@code Mapping.Use}, {@code Mapping.Modify} and
 * {@code Mapping.Audit} on the mapping to read it) and the errors of its handlers and of {@code
 * PVE::SectionConfig}, prefixed as {@code lock_pci_config} prefixes them.
 */
final class PciMappingApi {
    private static final String LOCK_WITHOUT_QUORUM = "cfs-lock 'file-mapping_pci_cfg' error: no quorum!";
    private static final List<String> OPTIONS = List.of("description", "mdev", "live-migration-capable", "map");

    private final Cluster cluster;

    PciMappingApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r) {
        r.add(
                "GET",
                "/cluster/mapping/pci",
                ParamSchema.of().string("check-node", false, 0, ParamSchema.NODE_CHECK),
                this::index);
        r.add(
                "GET",
                "/cluster/mapping/pci/{id}",
                Permission.or(
                        Permission.perm("/mapping/pci/{id}", "Mapping.Use"),
                        Permission.perm("/mapping/pci/{id}", "Mapping.Modify"),
                        Permission.perm("/mapping/pci/{id}", "Mapping.Audit")),
                idSchema(),
                this::read);
        r.add(
                "POST",
                "/cluster/mapping/pci",
                Permission.perm("/mapping/pci", "Mapping.Modify"),
                optionSchema(idSchema()).required("map"),
                this::create);
        r.add(
                "PUT",
                "/cluster/mapping/pci/{id}",
                Permission.perm("/mapping/pci/{id}", "Mapping.Modify"),
                optionSchema(idSchema())
                        .string("digest", false, 64, null)
                        .string("delete", false, 4096, PciMappingApi::configIdList),
                this::update);
        r.add(
                "DELETE",
                "/cluster/mapping/pci/{id}",
                Permission.perm("/mapping/pci", "Mapping.Modify"),
                idSchema(),
                this::delete);
    }

    private static ParamSchema idSchema() {
        return ParamSchema.of().string("id", true, 0, ParamSchema.CONFIG_ID_CHECK);
    }

    /** The mapping's own properties, as {@code PVE::Mapping::PCI} declares them. */
    private static ParamSchema optionSchema(ParamSchema s) {
        return s.string("description", false, 4096, null)
                .bool("mdev")
                .bool("live-migration-capable")
                .array("map", false, PciMapping.ENTRY, PciMapping::checkEntry);
    }

    /** pve-common's {@code pve-configid-list}: every item of the list a configuration ID. */
    private static String configIdList(String value) {
        for (String item : splitList(value)) {
            String problem = ParamSchema.CONFIG_ID_CHECK.apply(item);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    /** pve-common's {@code split_list}: items separated by commas, semicolons or white space. */
    private static List<String> splitList(String value) {
        List<String> out = new ArrayList<>();
        for (String item : value.replaceAll("[,;]", " ").trim().split("\\s+", -1)) {
            if (!item.isEmpty()) {
                out.add(item);
            }
        }
        return out;
    }

    /**
     * The mappings the token holds {@code Mapping.Modify}, {@code Mapping.Use} or {@code
     * Mapping.Audit} on, each with its {@code id} and the file's {@code digest}; with {@code
     * check-node} (answered by that node) also its {@code checks} there. The simulated nodes' devices
     * always match their mappings, so the only finding is a mapping without a device on the node.
     */
    private Object index(Call c) {
        String checkNode = c.params().str("check-node");
        if (checkNode != null && !checkNode.equals("localhost")) {
            cluster.reachableNode(checkNode);
        }
        String digest = cluster.pciMappings.digest();
        List<Object> out = new ArrayList<>();
        for (PciMapping m : cluster.pciMappings.all()) {
            if (!canSee(m.id())) {
                continue;
            }
            Map<String, Object> e = m.json();
            e.put("id", m.id());
            e.put("digest", digest);
            if (checkNode != null) {
                List<Object> checks = new ArrayList<>();
                if (m.devicesOn(checkNode).isEmpty()) {
                    checks.add(Map.of("severity", "warning", "message", "No mapping for node " + checkNode + "."));
                }
                e.put("checks", checks);
            }
            out.add(e);
        }
        return out;
    }

    private boolean canSee(String id) {
        String path = "/mapping/pci/" + id;
        return cluster.acl.has(path, "Mapping.Modify")
                || cluster.acl.has(path, "Mapping.Use")
                || cluster.acl.has(path, "Mapping.Audit");
    }

    private Object read(Call c) {
        String id = c.params().str("id");
        PciMapping m = cluster.pciMappings.get(id);
        if (m == null) {
            throw Errors.handler("mapping '" + id + "' not found");
        }
        Map<String, Object> out = m.json();
        out.put("digest", cluster.pciMappings.digest());
        return out;
    }

    private Object create(Call c) {
        ValidParams p = c.params();
        String id = p.str("id");
        Map<String, Object> given = checkConfig(p);
        String failed = "create hardware mapping failed: ";
        if (!cluster.quorate()) {
            throw Errors.handler(failed + LOCK_WITHOUT_QUORUM);
        }
        if (cluster.pciMappings.get(id) != null) {
            throw Errors.handler(failed + "pci ID '" + id + "' already defined");
        }
        cluster.pciMappings.put(mapping(id, given));
        return null;
    }

    private Object update(Call c) {
        ValidParams p = c.params();
        String id = p.str("id");
        String digest = p.str("digest");
        List<String> delete = p.has("delete") ? splitList(p.str("delete")) : List.of();
        String failed = "update hardware mapping failed: ";
        if (!cluster.quorate()) {
            throw Errors.handler(failed + LOCK_WITHOUT_QUORUM);
        }
        String current = cluster.pciMappings.digest();
        if (digest != null && !digest.isEmpty() && !digest.equals(current)) {
            throw Errors.handler(failed + "detected modified configuration - file changed by other user? Try again.");
        }
        PciMapping old = cluster.pciMappings.get(id);
        if (old == null) {
            throw Errors.handler(failed + "pci ID '" + id + "' does not exist");
        }
        Map<String, Object> given;
        try {
            given = checkConfig(p);
        } catch (ApiException e) {
            throw Errors.handler(failed + e.getMessage());
        }
        Map<String, Object> merged = old.json();
        for (String key : delete) {
            if (!OPTIONS.contains(key)) {
                throw Errors.handler(failed + "no such option '" + key + "'");
            }
            if (key.equals("map")) {
                throw Errors.handler(failed + "unable to delete required option 'map'");
            }
            if (given.containsKey(key)) {
                throw Errors.handler(failed + "cannot set and delete property '" + key + "' at the same time!");
            }
            merged.remove(key);
        }
        merged.putAll(given);
        cluster.pciMappings.put(mapping(id, merged));
        return null;
    }

    private Object delete(Call c) {
        if (!cluster.quorate()) {
            throw Errors.handler("delete pci mapping failed: " + LOCK_WITHOUT_QUORUM);
        }
        cluster.pciMappings.remove(c.params().str("id"));
        return null;
    }

    /**
     * {@code PVE::SectionConfig::check_config} as both handlers call it (as for a new section): no
     * value may hold a line break, and {@code map} must be given. Returns the given options as the
     * file keeps them (values trimmed; an empty description is null).
     */
    private static Map<String, Object> checkConfig(ValidParams p) {
        Map<String, Object> out = new LinkedHashMap<>();
        String description = p.str("description");
        if (description != null) {
            if (description.matches("(?s).*[\\n\\r].*")) {
                throw Errors.handler("property contains a line feed");
            }
            // an empty one is not written to the file: it is as good as deleted
            out.put("description", description.isBlank() ? null : description.strip());
        }
        for (String flag : List.of("mdev", "live-migration-capable")) {
            if (p.has(flag)) {
                out.put(flag, p.bool(flag, false) ? 1 : 0);
            }
        }
        if (!p.has("map")) {
            throw Errors.handler("missing value for required option 'map'");
        }
        out.put("map", p.list("map").stream().map(String::strip).toList());
        return out;
    }

    @SuppressWarnings("unchecked") // built by checkConfig and PciMapping.json: map is a list of strings
    private static PciMapping mapping(String id, Map<String, Object> options) {
        return new PciMapping(
                id,
                (List<String>) options.get("map"),
                (String) options.get("description"),
                (Integer) options.get("mdev"),
                (Integer) options.get("live-migration-capable"));
    }
}
