package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /nodes/{node}/storage} and {@code .../storage/{storage}/status} as pve-storage answers
 * them: every storage of {@code storage.cfg} the token may audit or allocate on, with its type,
 * content, whether it is shared, enabled and active on the node, and its space there.
 */
final class StorageApi {
    private final Cluster cluster;

    StorageApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r) {
        r.add(
                "GET",
                "/nodes/{node}/storage",
                ParamSchema.of()
                        .node("node")
                        .string("storage", false, 0, ParamSchema.STORAGE_ID_CHECK)
                        .string("content", false, 0, StorageApi::contentCheck)
                        .bool("enabled")
                        .string("target", false, 0, ParamSchema.NODE_CHECK)
                        .bool("format"),
                this::index);
        r.add(
                "GET",
                "/nodes/{node}/storage/{storage}/status",
                Permission.any("/storage/{storage}", "Datastore.Audit", "Datastore.AllocateSpace"),
                ParamSchema.of().node("node").string("storage", true, 0, ParamSchema.STORAGE_ID_CHECK),
                this::status);
    }

    private static final List<String> CONTENT =
            List.of("images", "rootdir", "vztmpl", "iso", "backup", "snippets", "import");

    private static String contentCheck(String v) {
        for (String c : v.split("[,;\\s]+", -1)) {
            if (!c.isEmpty() && !CONTENT.contains(c)) {
                return "invalid format - invalid content type '" + c + "'";
            }
        }
        return null;
    }

    private Object index(Call c) {
        ValidParams p = c.params();
        String node = c.node();
        String content = p.str("content");
        String only = p.str("storage");
        String target = p.str("target");
        if (target != null && (target.equals(node) || target.equals("localhost"))) {
            target = null;
        }
        Map<String, Map<String, Object>> info = info(node, content);
        if (only != null && !info.containsKey(only)) {
            throw Errors.param("storage", "No such storage.");
        }
        List<Object> out = new ArrayList<>();
        for (Map.Entry<String, Map<String, Object>> e : info.entrySet()) {
            StorageSpec s = cluster.storages.spec(e.getKey());
            String path = "/storage/" + s.id();
            if (!cluster.acl.has(path, "Datastore.Audit") && !cluster.acl.has(path, "Datastore.AllocateSpace")) {
                continue;
            }
            if (only != null && !only.equals(s.id())) {
                continue;
            }
            if (target != null && (!s.shared() || !s.enabledOn(node) || !s.enabledOn(target))) {
                continue;
            }
            Map<String, Object> data = new LinkedHashMap<>(e.getValue());
            data.put("storage", s.id());
            long total = ((Number) data.get("total")).longValue();
            if (total > 0) {
                data.put("used_fraction", ((Number) data.get("used")).doubleValue() / total);
            }
            out.add(data);
        }
        return out;
    }

    private Object status(Call c) {
        Map<String, Map<String, Object>> info = info(c.node(), null);
        Map<String, Object> data = info.get(c.params().str("storage"));
        if (data == null) {
            throw Errors.param("storage", "No such storage.");
        }
        return data;
    }

    /** pve-storage's {@code storage_info} on {@code node}: only enabled ones when a content is asked for. */
    private Map<String, Map<String, Object>> info(String node, String content) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        Node n = cluster.nodes.get(node);
        for (StorageSpec s : cluster.storages.specs()) {
            boolean enabled = s.enabledOn(node);
            if (content != null) {
                boolean wanted = false;
                for (String ct : content.split("[,;\\s]+", -1)) {
                    wanted |= s.content().contains(ct);
                }
                if (!wanted || !enabled) {
                    continue;
                }
            }
            StoragePool pool = cluster.storages.pool(s.id(), node);
            boolean active = enabled && n.online && pool != null;
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("type", s.type().pluginType());
            e.put("total", active ? pool.capacityBytes : 0L);
            e.put("avail", active ? pool.avail() : 0L);
            e.put("used", active ? pool.used() : 0L);
            e.put("shared", s.shared() ? 1 : 0);
            e.put("content", String.join(",", s.content()));
            e.put("active", active ? 1 : 0);
            e.put("enabled", enabled ? 1 : 0);
            out.put(s.id(), e);
        }
        return out;
    }
}
