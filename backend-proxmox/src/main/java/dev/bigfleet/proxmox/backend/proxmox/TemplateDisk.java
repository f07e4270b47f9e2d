package dev.bigfleet.proxmox.backend.proxmox;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One drive of a template's config ({@code scsi0: local-lvm:base-9000-disk-0,size=32G}): its key,
 * volume ID and storage, its size, and whether it is a CD-ROM (an ISO, or a cloud-init drive).
 */
record TemplateDisk(String key, String volid, String storage, long sizeBytes, boolean cdrom, boolean cloudinit) {
    static final Pattern KEY =
            Pattern.compile("ide[0-3]|sata[0-5]|scsi([0-9]|[12][0-9]|30)|virtio([0-9]|1[0-5])" + "|efidisk0|tpmstate0");
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)([KMGT])?");
    /** What Proxmox allocates for a cloud-init drive. */
    static final long CLOUDINIT_BYTES = 4L << 20;

    /** The drive, or empty when the entry has no volume ({@code none}, a host CD-ROM, a device path). */
    static Optional<TemplateDisk> parse(String key, String value) {
        if (!KEY.matcher(key).matches()) {
            return Optional.empty();
        }
        String[] parts = value.split(",", -1);
        String file = parts[0].startsWith("file=") ? parts[0].substring(5) : parts[0];
        int colon = file.indexOf(':');
        if (colon <= 0) {
            return Optional.empty();
        }
        boolean cdrom = false;
        long size = 0;
        for (int i = 1; i < parts.length; i++) {
            if (parts[i].equals("media=cdrom")) {
                cdrom = true;
            } else if (parts[i].startsWith("size=")) {
                size = parseSize(parts[i].substring(5));
            }
        }
        boolean cloudinit = file.matches("[^:]+:(\\d+/)?vm-\\d+-cloudinit(\\.\\w+)?");
        return Optional.of(new TemplateDisk(key, file, file.substring(0, colon), size, cdrom, cloudinit));
    }

    /** A disk whose data is cloned (neither an ISO nor a cloud-init drive, which is regenerated). */
    boolean dataDisk() {
        return !cdrom;
    }

    /** {@code 32G}, {@code 512M}, {@code 4096K} or bytes. */
    static long parseSize(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            return 0;
        }
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "" : m.group(2);
        long factor = switch (unit) {
            case "K" -> 1L << 10;
            case "M" -> 1L << 20;
            case "G" -> 1L << 30;
            case "T" -> 1L << 40;
            default -> 1;
        };
        return (long) (n * factor);
    }
}
