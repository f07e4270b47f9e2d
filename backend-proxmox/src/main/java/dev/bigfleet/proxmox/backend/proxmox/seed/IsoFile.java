package dev.bigfleet.proxmox.backend.proxmox.seed;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A file in the root directory of an {@link IsoImage}: its name and its bytes, which the image
 * holds exactly as given. A name is 1 to 30 lower-case letters, digits, {@code -} and {@code _}
 * (enough for {@code meta-data}, {@code user-data} and {@code network-config}). Readers that use
 * Joliet (Linux, cloud-init, xorriso) see the name exactly; the primary directory, for readers
 * without Joliet, holds it as ECMA-119 d-characters ({@code META_DATA.;1}). Its {@link #toString()}
 * names the file and its size, never its content.
 */
public final class IsoFile {
    /** ECMA-119 7.5.1 and 10.2 (interchange level 2): at most 30 characters of name and extension. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,29}");

    private final String name;
    private final byte[] content;

    private IsoFile(String name, byte[] content) {
        this.name = name;
        this.content = content;
    }

    /**
     * A file of that name holding a copy of {@code content}.
     *
     * @throws IllegalArgumentException when the name is not 1 to 30 of {@code a-z 0-9 - _}
     */
    public static IsoFile of(String name, byte[] content) {
        Objects.requireNonNull(content, "content");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "an ISO file name is 1 to 30 of a-z, 0-9, '-' and '_', starting with a letter or digit: " + name);
        }
        return new IsoFile(name, content.clone());
    }

    /** The name readers that use Joliet see. */
    public String name() {
        return name;
    }

    /** The content's length in bytes. */
    public int size() {
        return content.length;
    }

    /** A copy of the content. */
    public byte[] content() {
        return content.clone();
    }

    /** The content itself, for the writer only, which never changes it. */
    byte[] contentForWriting() {
        return content;
    }

    /**
     * The identifier of the primary directory's record (ECMA-119 7.5.1): the name in d-characters
     * ({@code A-Z 0-9 _}), SEPARATOR 1 with no extension, SEPARATOR 2 and version 1.
     */
    String primaryIdentifier() {
        return name.toUpperCase(Locale.ROOT).replace('-', '_') + ".;1";
    }

    /** The identifier of the Joliet directory's record: the name as it is (UCS-2 when written). */
    String jolietIdentifier() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IsoFile other && name.equals(other.name) && Arrays.equals(content, other.content);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + Arrays.hashCode(content);
    }

    @Override
    public String toString() {
        return name + " (" + content.length + " bytes)";
    }
}
