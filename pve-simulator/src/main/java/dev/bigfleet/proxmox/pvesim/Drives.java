package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * VM config drive entries ({@code scsi0: local-lvm:vm-105-disk-0,size=32G}): which config keys are
 * drives, their volume, whether they are CD-ROMs or cloud-init drives, and sizes in Proxmox's
 * {@code 32G} notation.
 */
final class Drives {
    static final Pattern KEY = Pattern.compile(
            "ide[0-3]|sata[0-5]|scsi([0-9]|[12][0-9]|30)|virtio([0-9]|1[0-5])|efidisk0|tpmstate0|unused\\d+");
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)([KMGT])?");
    /** What Proxmox allocates for a cloud-init drive. */
    static final long CLOUDINIT_BYTES = 4L << 20;

    /** qemu-server's {@code pve-qm-image-format}: a drive's {@code format}. */
    static final List<String> IMAGE_FORMATS = List.of("raw", "qcow", "qed", "qcow2", "vmdk", "cloop");

    /** A drive's {@code serial}: url-encoded, up to 20 bytes (60 characters). */
    static final java.util.function.Function<String, String> SERIAL_CHECK = v -> urlencoded(v, 60);

    /** An IDE drive's {@code model}: url-encoded, up to 40 bytes (120 characters). */
    static final java.util.function.Function<String, String> MODEL_CHECK = v -> urlencoded(v, 120);

    /** A SCSI drive's {@code product}. */
    static final java.util.function.Function<String, String> PRODUCT_CHECK =
            v -> v.matches("[A-Za-z0-9\\-_\\s]{0,16}") ? null : "value does not match the regex pattern";

    /** A SCSI drive's {@code vendor}. */
    static final java.util.function.Function<String, String> VENDOR_CHECK =
            v -> v.matches("[A-Za-z0-9\\-_\\s]{0,8}") ? null : "value does not match the regex pattern";

    /** A drive's {@code wwn}: {@code 0x} and 16 hex digits. */
    static final java.util.function.Function<String, String> WWN_CHECK =
            v -> v.matches("0x[0-9a-fA-F]{16}") ? null : "value does not match the regex pattern";

    /** pve-common's {@code urlencoded} format, then the key's maxLength, in check_prop's order. */
    private static String urlencoded(String v, int maxLength) {
        if (!v.matches("[-%a-zA-Z0-9_.!~*'()]*")) {
            return "invalid format - invalid urlencoded string: " + v;
        }
        return v.length() > maxLength ? "value may only be " + maxLength + " characters long" : null;
    }

    /** One drive: its config key, its {@code file} (a volume ID, {@code none} or {@code cdrom}) and options. */
    record Drive(String key, String file, Map<String, String> options) {
        boolean cdrom() {
            return "cdrom".equals(options.get("media"));
        }

        boolean cloudinit() {
            return file.matches("[^:]+:(\\d+/)?vm-\\d+-cloudinit(\\.\\w+)?");
        }

        /** A CD-ROM that is not a cloud-init drive: its config is copied, nothing is cloned. */
        boolean plainCdrom() {
            return cdrom() && !cloudinit();
        }

        boolean hasVolume() {
            return file.contains(":");
        }

        String storage() {
            return file.substring(0, file.indexOf(':'));
        }

        long sizeBytes() {
            String s = options.get("size");
            return s == null ? 0 : parseSize(s);
        }

        Drive withFile(String volid, long size) {
            Map<String, String> o = new LinkedHashMap<>(options);
            if (size > 0) {
                o.put("size", formatSize(size));
            }
            return new Drive(key, volid, o);
        }

        String print() {
            StringBuilder b = new StringBuilder(file);
            options.forEach((k, v) -> b.append(',').append(k).append('=').append(v));
            return b.toString();
        }
    }

    /** qemu-server's {@code valid_drive_names}, in its order. */
    static final List<String> NAMES = names();

    private Drives() {}

    private static List<String> names() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            out.add("ide" + i);
        }
        for (int i = 0; i < 31; i++) {
            out.add("scsi" + i);
        }
        for (int i = 0; i < 16; i++) {
            out.add("virtio" + i);
        }
        for (int i = 0; i < 6; i++) {
            out.add("sata" + i);
        }
        out.add("efidisk0");
        out.add("tpmstate0");
        return List.copyOf(out);
    }

    static boolean isDrive(String key) {
        return KEY.matcher(key).matches() && !key.startsWith("unused");
    }

    static Drive parse(String key, Object value) {
        String[] parts = value.toString().split(",", -1);
        String file = parts[0];
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq > 0) {
                options.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
            }
        }
        if (file.startsWith("file=")) {
            file = file.substring(5);
        }
        return new Drive(key, file, options);
    }

    /** Every drive of a config, in key order. */
    static List<Drive> of(Map<String, Object> config) {
        List<Drive> out = new ArrayList<>();
        config.keySet().stream().filter(Drives::isDrive).sorted().forEach(k -> out.add(parse(k, config.get(k))));
        return out;
    }

    /** {@code 32G}, {@code 512M}, {@code 4096K} or bytes, as in drive options and resize requests. */
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

    /** pve-common's {@code format_size}: the largest unit that divides the size exactly. */
    static String formatSize(long bytes) {
        String[] units = {"K", "M", "G", "T"};
        long value = bytes;
        String unit = "";
        for (String u : units) {
            if (value % 1024 != 0) {
                break;
            }
            value /= 1024;
            unit = u;
        }
        return value + unit;
    }
}
