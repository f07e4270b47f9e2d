package dev.bigfleet.proxmox.backend.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One data disk an instance type adds to each clone, an entry of its {@code disks} list: a new
 * volume of {@code sizeGib} on {@code storage}, allocated by Proxmox on the clone ({@code
 * <bus><n>: STORAGE:SIZE}) in the first slot of its bus the template leaves free.
 *
 * @param storage the storage the volume is allocated on
 * @param sizeGib its size
 * @param bus {@code scsi} or {@code virtio}
 * @param ssd whether the guest sees an SSD rather than a spinning disk (SCSI only)
 * @param discard whether the guest's discard (TRIM) requests reach the storage
 * @param iothread whether QEMU gives the disk its own I/O thread
 * @param cache QEMU's cache mode for it
 */
record DiskSpec(
        String storage,
        long sizeGib,
        String bus,
        Optional<Boolean> ssd,
        Optional<Boolean> discard,
        Optional<Boolean> iothread,
        Optional<String> cache) {

    /** The keys of an entry. */
    static final List<String> KEYS = List.of("storage", "size_gib", "bus", "ssd", "discard", "iothread", "cache");

    /** The buses a data disk may be on, and qemu-server's slot counts for them. */
    static final List<String> BUSES = List.of("scsi", "virtio");

    /** qemu-server's cache modes. */
    static final List<String> CACHE_MODES = List.of("none", "writethrough", "writeback", "unsafe", "directsync");

    /** The most data disks a type may add. */
    static final int MAX = 16;

    /** The slots of a bus: {@code scsi0..30}, {@code virtio0..15}. */
    static int slots(String bus) {
        return bus.equals("scsi") ? 31 : 16;
    }

    /** {@code "disks": [{"storage": "local-lvm", "size_gib": 100, "ssd": true, "discard": true}, ...]}. */
    static List<DiskSpec> parseList(JsonNode v, String where, long maxGib) {
        String what = where + ": disks";
        if (!v.isArray() || v.isEmpty() || v.size() > MAX) {
            throw new IllegalArgumentException(
                    what + " must be a list of 1 to " + MAX + " disks, each {\"storage\": ID, \"size_gib\": N, ...}");
        }
        List<DiskSpec> out = new ArrayList<>();
        for (JsonNode d : v) {
            out.add(parse(d, what + "[" + out.size() + "]", maxGib));
        }
        return out;
    }

    private static DiskSpec parse(JsonNode d, String what, long maxGib) {
        if (!d.isObject()) {
            throw new IllegalArgumentException(
                    what + " must be an object such as {\"storage\": \"local-lvm\", \"size_gib\": 100}");
        }
        d.fieldNames().forEachRemaining(k -> {
            if (!KEYS.contains(k)) {
                throw new IllegalArgumentException(
                        what + ": unknown key \"" + k + "\" (" + String.join(", ", KEYS) + ")");
            }
        });
        JsonNode storage = d.path("storage");
        if (!storage.isTextual() || !storage.asText().matches(TypeSettings.STORAGE_ID)) {
            throw new IllegalArgumentException(what + ": storage "
                    + (storage.isMissingNode() ? "is missing" : storage + " is not a storage id")
                    + " (e.g. \"local-lvm\")");
        }
        JsonNode size = d.path("size_gib");
        if (!size.isIntegralNumber() || size.asLong() < 1 || size.asLong() > maxGib) {
            throw new IllegalArgumentException(what + ": size_gib must be a whole number from 1 to " + maxGib
                    + (size.isMissingNode() ? " (it is missing)" : ", got " + size));
        }
        String bus = d.path("bus").asText("scsi");
        if (!d.path("bus").isMissingNode() && (!d.path("bus").isTextual() || !BUSES.contains(bus))) {
            throw new IllegalArgumentException(what + ": bus must be \"scsi\" or \"virtio\", got " + d.path("bus"));
        }
        Optional<Boolean> ssd = flag(d, "ssd", what);
        if (ssd.isPresent() && !bus.equals("scsi")) {
            throw new IllegalArgumentException(
                    what + ": ssd is for scsi disks; Proxmox has no ssd option on a virtio disk");
        }
        JsonNode cache = d.path("cache");
        if (!cache.isMissingNode() && (!cache.isTextual() || !CACHE_MODES.contains(cache.asText()))) {
            throw new IllegalArgumentException(
                    what + ": cache must be one of " + String.join(", ", CACHE_MODES) + ", got " + cache);
        }
        return new DiskSpec(
                storage.asText(),
                size.asLong(),
                bus,
                ssd,
                flag(d, "discard", what),
                flag(d, "iothread", what),
                cache.isMissingNode() ? Optional.empty() : Optional.of(cache.asText()));
    }

    private static Optional<Boolean> flag(JsonNode d, String key, String what) {
        JsonNode v = d.path(key);
        if (v.isMissingNode()) {
            return Optional.empty();
        }
        if (!v.isBoolean()) {
            throw new IllegalArgumentException(what + ": " + key + " must be true or false, got " + v);
        }
        return Optional.of(v.asBoolean());
    }

    /** Bytes the volume takes. */
    long sizeBytes() {
        return sizeGib << 30;
    }

    /** The drive value that makes Proxmox allocate it: {@code local-lvm:100,discard=on,iothread=1,ssd=1}. */
    String allocation() {
        StringBuilder b = new StringBuilder(storage).append(':').append(sizeGib);
        cache.ifPresent(c -> b.append(",cache=").append(c));
        discard.ifPresent(on -> b.append(",discard=").append(on ? "on" : "ignore"));
        iothread.ifPresent(on -> b.append(",iothread=").append(on ? 1 : 0));
        ssd.ifPresent(on -> b.append(",ssd=").append(on ? 1 : 0));
        return b.toString();
    }
}
