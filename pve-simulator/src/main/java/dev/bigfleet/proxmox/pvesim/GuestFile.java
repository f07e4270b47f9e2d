package dev.bigfleet.proxmox.pvesim;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A file inside a simulated guest. {@code mode} holds the permission bits (e.g. {@code 0600}).
 * New files made by {@code agent/file-write} get {@code 0666}, as qemu-guest-agent creates them
 * (it sets that mode explicitly, so the umask does not apply); rewriting an existing file keeps its
 * mode. A client that wants a private file must create it with a tight mode before writing.
 */
// a file's bytes, as a snapshot for tests; never compared as a whole
@SuppressWarnings("ArrayRecordComponent")
public record GuestFile(String path, byte[] content, int mode) {

    public GuestFile {
        Objects.requireNonNull(path, "path");
        content = content.clone();
    }

    @Override
    public byte[] content() {
        return content.clone();
    }

    /** The content decoded as UTF-8. */
    public String text() {
        return new String(content, StandardCharsets.UTF_8);
    }

    public int size() {
        return content.length;
    }

    /** The mode as four octal digits, e.g. {@code 0600}. */
    public String modeOctal() {
        return String.format("%04o", mode);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GuestFile f && f.path.equals(path) && f.mode == mode && Arrays.equals(f.content, content);
    }

    @Override
    public int hashCode() {
        return Objects.hash(path, mode, Arrays.hashCode(content));
    }

    @Override
    public String toString() {
        return "GuestFile[" + path + ", " + content.length + " bytes, mode " + modeOctal() + "]";
    }
}
