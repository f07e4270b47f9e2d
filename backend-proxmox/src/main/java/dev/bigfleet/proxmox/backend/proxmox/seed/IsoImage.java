package dev.bigfleet.proxmox.backend.proxmox.seed;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An ISO 9660 image (ECMA-119) of one root directory holding some files, with Joliet names, such
 * as a cloud-init NoCloud seed. Equal volume id, time and files give equal bytes: the time is the
 * only date the image records (its creation and modification dates and every file's). {@link
 * Iso9660Writer} says how it is laid out. Its {@link #toString()} never shows file content.
 */
public final class IsoImage {
    /** The size of a sector of the image, and the unit its size is a multiple of. */
    public static final int SECTOR_SIZE = Iso9660Writer.SECTOR;

    /** 16 characters fill the Joliet volume identifier; only those that are safe everywhere. */
    private static final Pattern VOLUME_ID = Pattern.compile("[A-Za-z0-9_]{1,16}");

    private final String volumeId;
    private final Instant recorded;
    private final List<IsoFile> files;
    private final Iso9660Writer writer;

    private IsoImage(String volumeId, Instant recorded, List<IsoFile> files) {
        this.volumeId = volumeId;
        this.recorded = recorded;
        this.files = files;
        this.writer = new Iso9660Writer(volumeId, LocalDateTime.ofInstant(recorded, ZoneOffset.UTC), files);
    }

    /**
     * An image of these files, in its root directory, their data in this order.
     *
     * @param volumeId the label (blkid's {@code LABEL}): 1 to 16 of {@code A-Z a-z 0-9 _}. Lower
     *     case is not among ECMA-119's d-characters (8.4.6), but it is what {@code genisoimage -V
     *     cidata} writes, what the NoCloud documentation asks for, and every reader takes it
     * @param recorded the time it records, from 1900 to 2155 (the years a directory record holds)
     * @throws IllegalArgumentException for another label or time, or two files of one name (also
     *     when they differ only in {@code -} and {@code _}, one name in the primary directory)
     */
    public static IsoImage of(String volumeId, Instant recorded, List<IsoFile> files) {
        if (!VOLUME_ID.matcher(volumeId).matches()) {
            throw new IllegalArgumentException("a volume id is 1 to 16 of A-Z, a-z, 0-9 and '_': " + volumeId);
        }
        int year = LocalDateTime.ofInstant(Objects.requireNonNull(recorded, "recorded"), ZoneOffset.UTC)
                .getYear();
        if (year < 1900 || year > 2155) {
            throw new IllegalArgumentException("an ISO 9660 date is from 1900 to 2155: " + recorded);
        }
        Set<String> identifiers = new HashSet<>();
        for (IsoFile file : files) {
            if (!identifiers.add(file.primaryIdentifier())) {
                throw new IllegalArgumentException("two files would have the name " + file.primaryIdentifier());
            }
        }
        return new IsoImage(volumeId, recorded, List.copyOf(files));
    }

    public String volumeId() {
        return volumeId;
    }

    public Instant recorded() {
        return recorded;
    }

    public List<IsoFile> files() {
        return files;
    }

    /** The image's length in bytes, a multiple of {@link #SECTOR_SIZE}. */
    public long size() {
        return (long) writer.sectors() * SECTOR_SIZE;
    }

    /** Writes the image, {@link #size()} bytes; the stream is left open. */
    public void writeTo(OutputStream out) throws IOException {
        writer.writeTo(out);
    }

    /** The image in memory. */
    public byte[] toByteArray() {
        if (size() > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("the image is too large for one array: " + size() + " bytes");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) size());
        try {
            writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
        }
        return out.toByteArray();
    }

    @Override
    public String toString() {
        return "ISO image " + volumeId + " of " + files + ", " + size() + " bytes";
    }
}
