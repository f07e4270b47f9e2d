package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /nodes/{node}/storage/{storage}/content} and {@code DELETE .../content/{volume}} as
 * pve-storage's {@code PVE::API2::Storage::Content} answers them: the list of a storage's volumes of
 * the content types it holds (VM images, ISO images), each shown only when the token may access it
 * ({@code check_volume_access}); a delete is an {@code imgdel} task that frees the volume whoever
 * uses it (pve-storage does not look at VM configs: an ISO image attached to a VM goes all the
 * same, and that VM's next start fails on it).
 */
final class StorageContentApi {
    private static final String CONTENT = "/nodes/{node}/storage/{storage}/content";
    /** {@code volume_list}'s order of content types. */
    private static final List<String> TYPES =
            List.of("rootdir", "images", "vztmpl", "iso", "backup", "snippets", "import");

    /** pve-storage's {@code parse_volume_id}. */
    static final Pattern VOLUME_ID = Pattern.compile("(?i)([a-z][a-z0-9\\-_.]*[a-z0-9]):(.+)", Pattern.DOTALL);

    private final Cluster cluster;

    StorageContentApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r) {
        r.add(
                "GET",
                CONTENT,
                Permission.any("/storage/{storage}", "Datastore.Audit", "Datastore.AllocateSpace"),
                ParamSchema.of()
                        .node("node")
                        .string("storage", true, 0, ParamSchema.STORAGE_ID_CHECK)
                        .string("content", false, 0, StorageContentApi::contentCheck)
                        .vmid("vmid", false),
                this::index);
        r.add(
                "DELETE",
                CONTENT + "/{volume+}",
                ParamSchema.of()
                        .node("node")
                        .string("storage", false, 0, ParamSchema.STORAGE_ID_CHECK)
                        .string("volume", true)
                        .integer("delay", false, 1, 30),
                this::delete);
    }

    /** pve-storage's {@code pve-storage-content} format: one content type. */
    static String contentCheck(String v) {
        return v.equals("import") || TYPES.contains(v) ? null : "invalid format - invalid content type '" + v + "'";
    }

    private Object index(Call c) {
        String node = c.node();
        StorageSpec spec = cluster.storages.require(c.params().str("storage"));
        String content = c.params().str("content");
        Integer vmid = c.params().has("vmid") ? c.params().integer("vmid") : null;
        List<String> types = new ArrayList<>();
        for (String t : content == null ? TYPES : List.of(content)) {
            if (spec.content().contains(t)) {
                types.add(t);
            }
        }
        cluster.storages.requireEnabled(spec.id(), node);
        StoragePool pool = cluster.storages.pool(spec.id(), node);
        List<Map<String, Object>> out = new ArrayList<>();
        for (String type : types) {
            for (Volume v : pool.volumes.values()) {
                Map<String, Object> item = item(v, type, vmid);
                if (item != null && canAccess(v)) {
                    out.add(item);
                }
            }
        }
        out.sort(Comparator.comparing(m -> m.get("volid").toString().toLowerCase(Locale.ROOT)));
        return out;
    }

    /** One volume as {@code list_volumes} shows it under content type {@code type}; null when not listed there. */
    private static Map<String, Object> item(Volume v, String type, Integer vmid) {
        Map<String, Object> item = new LinkedHashMap<>();
        if (type.equals("iso") && v.iso() && vmid == null) {
            item.put("volid", v.volid());
            item.put("format", "iso");
            item.put("size", v.sizeBytes);
            item.put("ctime", v.ctime);
        } else if (type.equals("images") && !v.iso() && (vmid == null || v.owner == vmid)) {
            // the VMs are QEMU guests: their volumes are images, never rootdir
            item.put("volid", v.volid());
            String name = v.baseName();
            item.put("format", name.endsWith(".qcow2") ? "qcow2" : "raw");
            item.put("size", v.sizeBytes);
            item.put("vmid", v.owner);
        } else {
            return null;
        }
        item.put("content", type);
        return item;
    }

    /** {@code check_volume_access} for a listing: whether the token may see this volume. */
    private boolean canAccess(Volume v) {
        String storage = "/storage/" + v.storage;
        if (cluster.acl.has(storage, "Datastore.Allocate")) {
            return true;
        }
        if (v.iso()) {
            return cluster.acl.has(storage, "Datastore.AllocateSpace") || cluster.acl.has(storage, "Datastore.Audit");
        }
        return cluster.acl.has(storage, "Datastore.Audit") && cluster.acl.has("/vms/" + v.owner, "VM.Config.Disk");
    }

    private Object delete(Call c) {
        String node = c.node();
        String volid = realVolumeId(c.params().str("storage"), c.params().str("volume"));
        String storeid = volid.substring(0, volid.indexOf(':'));
        String volname = volid.substring(volid.indexOf(':') + 1);
        // PVE::Storage::path: the storage and the volume's name must make sense, existing or not
        StorageSpec spec = cluster.storages.require(storeid);
        String vtype = spec.type().contentType(volname);
        cluster.acl.require("/storage/" + storeid, "Datastore.Allocate");
        Volume existing = cluster.storages.volume(volid, node);
        String id = (existing != null && existing.owner > 0 ? existing.owner + "@" : "") + storeid;
        TaskBody body = () -> freeVolume(node, spec, volid, vtype);
        Duration planned = cluster.delays.task(TaskKind.VOLUME_DELETE);
        Integer delay = c.params().has("delay") ? c.params().integer("delay") : null;
        if (delay != null
                && planned.compareTo(Duration.ofSeconds(delay)) <= 0
                && !cluster.faults.pending(TaskKind.VOLUME_DELETE)) {
            // the task ends within the wait: Proxmox answers null, or dies with its error
            Task task = cluster.runTaskNow(TaskKind.VOLUME_DELETE, node, id, body);
            if (!task.exitStatus.equals("OK") && !task.exitStatus.startsWith("WARNINGS: ")) {
                throw Errors.handler(task.exitStatus);
            }
            return null;
        }
        return cluster.startTask(TaskKind.VOLUME_DELETE, node, id, planned, body)
                .upid
                .toString();
    }

    /** {@code vdisk_free}, and the worker's last line. */
    private String freeVolume(String node, StorageSpec spec, String volid, String vtype) {
        if (!spec.enabledOn(node)) {
            // activate_storage on this node
            return "storage '" + spec.id() + "' is not available on node '" + node + "'";
        }
        Volume v = cluster.storages.volume(volid, node);
        String volname = volid.substring(volid.indexOf(':') + 1);
        if (v != null && cluster.storages.baseInUse(v, node)) {
            return "base volume '" + volname + "' is still in use by linked clones";
        }
        if (v == null) {
            if (!spec.type().hasPath()) {
                return "the simulator does not model deleting a missing volume on a "
                        + spec.type().pluginType() + " storage";
            }
            String path = vtype.equals("iso")
                    ? spec.type().isoPath(spec.id(), volname.substring(4))
                    : spec.type().path(spec.id(), volname);
            cluster.warn("disk image '" + path + "' does not exist");
        } else {
            cluster.storages.free(v, node);
            if (v.file != null) {
                try {
                    Files.deleteIfExists(v.file);
                } catch (IOException e) {
                    // the simulator's own file: nothing the API would tell
                }
            }
        }
        cluster.log("Removed volume '" + volid + "'");
        return null;
    }

    /** The content API's {@code real_volume_id}: a full volume ID, or one made of the storage and a name. */
    static String realVolumeId(String storage, String volume) {
        if (volume.contains(":")) {
            Matcher m = VOLUME_ID.matcher(volume);
            if (!m.matches()) {
                throw Errors.param("volume", "unable to parse volume ID '" + volume + "'");
            }
            if (storage != null && !m.group(1).equals(storage)) {
                throw Errors.param("volume", "storage ID mismatch (" + m.group(1) + " != " + storage + ")");
            }
            return volume;
        }
        if (storage == null) {
            throw Errors.param("volume", "no storage specified - incomplete volume ID");
        }
        return storage + ":" + volume;
    }
}
