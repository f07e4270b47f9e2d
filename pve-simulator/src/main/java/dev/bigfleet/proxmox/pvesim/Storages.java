package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cluster's storages ({@code storage.cfg}) and their space: one pool per node for a local
 * storage, one for a shared one. Volumes are found by volume ID and the node of the VM using them.
 * The bytes of uploaded files are kept in a directory of the simulator's host.
 */
final class Storages implements AutoCloseable {
    private final Map<String, StorageSpec> specs = new LinkedHashMap<>();
    private final Map<String, StoragePool> pools = new LinkedHashMap<>();
    private final Path files;
    private final AtomicLong fileNames = new AtomicLong();

    Storages(List<StorageSpec> storages, List<String> nodes) {
        try {
            this.files = Files.createTempDirectory("pvesim-storage");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (StorageSpec s : storages) {
            specs.put(s.id(), s);
            if (s.shared()) {
                pools.put(s.id(), new StoragePool(s, null));
            } else {
                for (String n : nodes) {
                    if (s.enabledOn(n)) {
                        pools.put(s.id() + "@" + n, new StoragePool(s, n));
                    }
                }
            }
        }
    }

    List<StorageSpec> specs() {
        return List.copyOf(specs.values());
    }

    StorageSpec spec(String id) {
        return specs.get(id);
    }

    /** {@code storage_config}: the storage, or the handler error Proxmox gives for an unknown one. */
    StorageSpec require(String id) {
        StorageSpec s = specs.get(id);
        if (s == null) {
            throw Errors.handler("storage '" + id + "' does not exist");
        }
        return s;
    }

    /** {@code storage_check_enabled} on {@code node}. */
    StorageSpec requireEnabled(String id, String node) {
        StorageSpec s = require(id);
        if (!s.enabledOn(node)) {
            throw Errors.handler("storage '" + id + "' is not available on node '" + node + "'");
        }
        return s;
    }

    /** The space of storage {@code id} as node {@code node} sees it; null when not enabled there. */
    StoragePool pool(String id, String node) {
        StorageSpec s = specs.get(id);
        if (s == null || !s.enabledOn(node)) {
            return null;
        }
        return pools.get(s.shared() ? id : id + "@" + node);
    }

    List<StoragePool> pools() {
        return new ArrayList<>(pools.values());
    }

    /** The volume {@code volid} as node {@code node} sees it, or null. */
    Volume volume(String volid, String node) {
        int colon = volid.indexOf(':');
        if (colon <= 0) {
            return null;
        }
        StoragePool p = pool(volid.substring(0, colon), node);
        return p == null ? null : p.volumes.get(volid.substring(colon + 1));
    }

    Volume add(StoragePool pool, String volname, int owner, boolean base, Volume from, long size, long allocated) {
        Volume v = new Volume(pool.spec.id(), volname, owner, base, from, size, allocated);
        pool.volumes.put(volname, v);
        return v;
    }

    void free(Volume v, String node) {
        StoragePool p = pool(v.storage, node);
        if (p != null) {
            p.volumes.remove(v.volname, v);
        }
    }

    /**
     * pve-storage's {@code volume_is_base_and_used}: a base volume some linked clone names as its
     * base. An LVM-thin clone does not name its base, so an LVM-thin base never counts as used.
     */
    boolean baseInUse(Volume base, String node) {
        if (!base.base) {
            return false;
        }
        StoragePool p = pool(base.storage, node);
        if (p == null || !p.spec.type().linkTracksBase()) {
            return false;
        }
        for (Volume v : p.volumes.values()) {
            if (v.linkedFrom == base) {
                return true;
            }
        }
        return false;
    }

    /** A fresh path for file bytes on the simulator's host (nothing is created). */
    Path newFile(String name) {
        return files.resolve(fileNames.incrementAndGet() + "-" + name);
    }

    @Override
    public void close() {
        HostFiles.deleteTree(files);
    }
}
