package dev.bigfleet.proxmox.backend.proxmox.seed;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small reader of single-directory ISO 9660 images, written from ECMA-119 apart from the writer
 * (it shares no code with it), so the property tests can read thousands of images back quickly.
 * It is strict where the writer must be: the system area is zeros, both halves of every
 * both-endian field agree, the path tables and the descriptors agree on the root directory, the
 * image is as long as the Volume Space Size says, and no record or file runs past its end.
 * {@code IsoReadersTest} checks it against isoinfo, so what it reads is what a real reader reads.
 */
final class IsoReader {
    private static final int SECTOR = 2048;
    private static final List<String> JOLIET_ESCAPES = List.of("%/@", "%/C", "%/E");

    private final byte[] image;
    private final int primary;
    private final int joliet;

    private IsoReader(byte[] image) {
        this.image = image;
        check(image.length % SECTOR == 0, "the image is not whole sectors: " + image.length + " bytes");
        for (int i = 0; i < 16 * SECTOR; i++) {
            check(image[i] == 0, "the system area holds a byte at " + i);
        }
        int primary = -1;
        int joliet = -1;
        for (int sector = 16; ; sector++) {
            int at = sector * SECTOR;
            check(at + SECTOR <= image.length, "no Volume Descriptor Set Terminator");
            check(ascii(at + 1, 5).equals("CD001") && u8(at + 6) == 1, "no volume descriptor at sector " + sector);
            int type = u8(at);
            if (type == 255) {
                break;
            }
            if (type == 1) {
                primary = at;
            } else if (type == 2 && JOLIET_ESCAPES.contains(ascii(at + 88, 3))) {
                joliet = at;
            }
        }
        check(primary >= 0, "no Primary Volume Descriptor");
        this.primary = primary;
        this.joliet = joliet;
        checkDescriptor(primary);
        if (joliet >= 0) {
            checkDescriptor(joliet);
        }
    }

    static IsoReader of(byte[] image) {
        return new IsoReader(image);
    }

    /** The Primary Volume Descriptor's Volume Identifier, without its trailing spaces. */
    String volumeId() {
        return ascii(primary + 40, 32).stripTrailing();
    }

    boolean hasJoliet() {
        return joliet >= 0;
    }

    /** The Joliet descriptor's Volume Identifier, without its trailing spaces. */
    String jolietVolumeId() {
        check(hasJoliet(), "no Joliet descriptor");
        return new String(image, joliet + 40, 32, StandardCharsets.UTF_16BE).stripTrailing();
    }

    /** The primary root directory's files, by their identifier as recorded, in the directory's order. */
    Map<String, byte[]> primaryFiles() {
        return files(primary, false);
    }

    /** The Joliet root directory's files, by name, in the directory's order. */
    Map<String, byte[]> jolietFiles() {
        check(hasJoliet(), "no Joliet descriptor");
        return files(joliet, true);
    }

    private void checkDescriptor(int d) {
        check(both32(d + 80) == image.length / SECTOR, "the Volume Space Size is not the image's");
        check(both16(d + 120) == 1 && both16(d + 124) == 1, "not a volume set of one volume");
        check(both16(d + 128) == SECTOR, "the Logical Block Size is not 2048");
        int root = both32(d + 156 + 2);
        int tableSize = both32(d + 132);
        int l = le32(d + 140) * SECTOR;
        int m = be32(d + 148) * SECTOR;
        check(tableSize == 10, "a path table of more than the root: " + tableSize);
        check(l + tableSize <= image.length && m + tableSize <= image.length, "a path table beyond the image");
        check(u8(l) == 1 && le32(l + 2) == root && u16le(l + 6) == 1 && u8(l + 8) == 0, "Type L path table");
        check(u8(m) == 1 && be32(m + 2) == root && u16be(m + 6) == 1 && u8(m + 8) == 0, "Type M path table");
        check(u8(d + 881) == 1, "File Structure Version is not 1");
    }

    private Map<String, byte[]> files(int descriptor, boolean ucs2) {
        int rootRecord = descriptor + 156;
        check(u8(rootRecord) == 34 && u8(rootRecord + 32) == 1 && u8(rootRecord + 33) == 0, "root directory record");
        int extent = both32(rootRecord + 2);
        int size = both32(rootRecord + 10);
        check(size % SECTOR == 0 && (long) extent * SECTOR + size <= image.length, "root directory extent");
        Map<String, byte[]> files = new LinkedHashMap<>();
        int at = extent * SECTOR;
        int end = at + size;
        int index = 0;
        while (at < end) {
            int length = u8(at);
            if (length == 0) { // the rest of this sector is unused
                at = (at / SECTOR + 1) * SECTOR;
                continue;
            }
            check(at % SECTOR + length <= SECTOR, "a directory record crosses a sector");
            int nameLength = u8(at + 32);
            check(length == 33 + nameLength + (nameLength % 2 == 0 ? 1 : 0), "Length of Directory Record");
            check(both16(at + 28) == 1, "Volume Sequence Number");
            int fileExtent = both32(at + 2);
            int fileSize = both32(at + 10);
            boolean directory = (u8(at + 25) & 0x02) != 0;
            if (index < 2) {
                check(directory && nameLength == 1 && u8(at + 33) == index, "the first records are . and ..");
                check(fileExtent == extent && fileSize == size, ". and .. are the root");
            } else {
                check(!directory, "a directory beneath the root");
                String name = new String(
                        image, at + 33, nameLength, ucs2 ? StandardCharsets.UTF_16BE : StandardCharsets.US_ASCII);
                check(fileSize == 0 || (long) fileExtent * SECTOR + fileSize <= image.length, "file beyond the image");
                byte[] data = fileSize == 0
                        ? new byte[0]
                        : Arrays.copyOfRange(image, fileExtent * SECTOR, fileExtent * SECTOR + fileSize);
                check(files.put(name, data) == null, "two records of " + name);
            }
            index++;
            at += length;
        }
        return files;
    }

    private int both16(int at) {
        int le = u16le(at);
        check(le == u16be(at + 2), "the halves of a both-endian 16-bit field differ at " + at);
        return le;
    }

    private int both32(int at) {
        int le = le32(at);
        check(le == be32(at + 4), "the halves of a both-endian 32-bit field differ at " + at);
        return le;
    }

    private int u8(int at) {
        return image[at] & 0xFF;
    }

    private int u16le(int at) {
        return u8(at) | u8(at + 1) << 8;
    }

    private int u16be(int at) {
        return u8(at) << 8 | u8(at + 1);
    }

    private int le32(int at) {
        return u8(at) | u8(at + 1) << 8 | u8(at + 2) << 16 | u8(at + 3) << 24;
    }

    private int be32(int at) {
        return u8(at) << 24 | u8(at + 1) << 16 | u8(at + 2) << 8 | u8(at + 3);
    }

    private String ascii(int at, int length) {
        return new String(image, at, length, StandardCharsets.US_ASCII);
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("not a valid image: " + what);
        }
    }
}
