package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.StorageVolume;
import dev.bigfleet.proxmox.backend.proxmox.client.TaskStatus;
import dev.bigfleet.proxmox.backend.proxmox.client.Upid;
import dev.bigfleet.proxmox.spi.BackendException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NoCloud seed images this provider puts on ISO storage: how they are named ({@code
 * bigfleet-seed-<provider>-<vmid>-<operation>.iso}, {@code <provider>} a hash of {@code --provider}
 * so providers sharing a storage never touch each other's), which ones a Configure of this process
 * is using right now, and the removal of every other one a storage holds: a seed holds a join secret
 * and must not outlive the Configure it was made for, also after a crash.
 */
final class SeedVolumes {
    private static final Logger log = LoggerFactory.getLogger(SeedVolumes.class);
    private static final String PREFIX = "bigfleet-seed-";
    /** How long a seed image's delete task may take. */
    static final Duration DELETE_LIMIT = Duration.ofSeconds(60);

    private final PveClient api;
    private final String prefix;
    /** Volids a running Configure uploaded or is uploading: the sweep leaves them alone. */
    private final Set<String> inUse = ConcurrentHashMap.newKeySet();

    SeedVolumes(PveClient api, String providerLabel) {
        this.api = api;
        this.prefix = PREFIX + providerHash(providerLabel) + "-";
    }

    /** A seed image of one Configure of a VM, on {@code storage}. */
    record Seed(String storage, String fileName) {
        String volid() {
            return storage + ":iso/" + fileName;
        }
    }

    /**
     * The name of the seed a Configure of {@code vmid} uploads, taken for that Configure until
     * {@link #release}: the sweep never removes it meanwhile.
     */
    Seed claim(String storage, long vmid, String operationId) {
        String op = operationId.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
        Seed seed = new Seed(storage, prefix + vmid + "-" + op + ".iso");
        inUse.add(seed.volid());
        return seed;
    }

    void release(Seed seed) {
        inUse.remove(seed.volid());
    }

    /** Whether {@code fileName} is a seed image this provider made. */
    boolean ours(String fileName) {
        return fileName.startsWith(prefix) && fileName.endsWith(".iso");
    }

    /**
     * Removes from {@code storage}, as {@code node} sees it, every seed image of this provider that no
     * Configure of this process is using; returns how many. Failures are logged: the next pass tries
     * again.
     */
    int sweep(String node, String storage, TaskWaiter tasks) {
        Set<String> stale = new LinkedHashSet<>();
        try {
            for (StorageVolume v : api.storageContent(node, storage, "iso")) {
                if (ours(v.fileName()) && !inUse.contains(v.volid())) {
                    stale.add(v.volid());
                }
            }
        } catch (PveApiException e) {
            log.warn("could not list the seed images on storage {} of node {}: {}", storage, node, e.getMessage());
            return 0;
        }
        int removed = 0;
        for (String volid : stale) {
            if (inUse.contains(volid)) {
                continue;
            }
            if (delete(node, storage, volid, tasks)) {
                log.info("removed seed image {} on node {}: no Configure uses it any more", volid, node);
                removed++;
            }
        }
        return removed;
    }

    /**
     * Deletes one seed image within {@link #DELETE_LIMIT}, even when the transition it served has
     * ended; whether it is gone. A failure is logged, never thrown.
     */
    boolean delete(String node, String storage, String volid, TaskWaiter tasks) {
        String what = "delete seed image " + volid + " on node " + node;
        try {
            Upid upid = api.deleteVolume(node, storage, volid);
            TaskStatus status = tasks.await(upid, what, CleanupContext.within("", what, DELETE_LIMIT));
            if (!status.succeeded()) {
                log.warn("{} failed: {}", what, status.failure());
                return false;
            }
            return true;
        } catch (PveApiException | BackendException e) {
            log.warn("{} failed: {}", what, e.getMessage());
            return false;
        }
    }

    private static String providerHash(String providerLabel) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(providerLabel.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
