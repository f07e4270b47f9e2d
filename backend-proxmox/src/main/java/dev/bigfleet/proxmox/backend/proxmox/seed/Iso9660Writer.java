package dev.bigfleet.proxmox.backend.proxmox.seed;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Lays out and writes one {@link IsoImage} as ECMA-119 (2nd edition, 1987, the text of ISO 9660:1988)
 * describes it, with a Joliet supplementary volume descriptor beside the primary one: two
 * directory hierarchies of one root directory each, naming the same file data. Section numbers in
 * the comments are ECMA-119's. Every logical sector and logical block is 2048 bytes (6.1.2,
 * 6.2.2), so a sector number is also a block number. Joliet (Microsoft's Joliet specification,
 * 1995) is a supplementary volume descriptor whose escape sequence {@code %/E} says its
 * identifiers are UCS-2, most significant byte first; Linux, cloud-init and xorriso read the
 * names from it. There is no Rock Ridge: Joliet is all those readers need.
 *
 * <pre>
 * sector  0-15   System Area (6.2.1), zeros
 *        16      Primary Volume Descriptor (8.4)
 *        17      Supplementary Volume Descriptor for Joliet (8.5)
 *        18      Volume Descriptor Set Terminator (8.3)
 *        19-22   Path Tables (9.4): primary Type L, primary Type M, Joliet Type L, Joliet Type M
 *        23-     the primary root directory (6.8, 9.1), then the Joliet root directory
 *        then    each file's data (6.8.1), from the start of a sector, in the order given
 * </pre>
 *
 * It never logs: the files are bootstrap data.
 */
final class Iso9660Writer {
    static final int SECTOR = 2048;

    private static final int PRIMARY_DESCRIPTOR = 16;
    private static final int JOLIET_DESCRIPTOR = 17;
    private static final int TERMINATOR = 18;
    private static final int PRIMARY_L_TABLE = 19;
    private static final int PRIMARY_M_TABLE = 20;
    private static final int JOLIET_L_TABLE = 21;
    private static final int JOLIET_M_TABLE = 22;
    private static final int PRIMARY_ROOT = 23;

    /** 9.4: the path table of a hierarchy with only a root directory is one 10-byte record. */
    private static final int PATH_TABLE_SIZE = 10;
    /** 9.1.6: bit 1 of the File Flags, "this record identifies a directory". */
    private static final int DIRECTORY = 0x02;
    /** 6.8.2.2: the identifiers of a directory's first two records, itself and its parent. */
    private static final byte[] SELF = {0x00};

    private static final byte[] PARENT = {0x01};

    /** A file and the first sector of its data. */
    private record Placed(IsoFile file, int extent) {}

    private final String volumeId;
    private final LocalDateTime recorded;
    private final List<Placed> placed;
    private final int jolietRoot;
    private final int primaryRootSize;
    private final int jolietRootSize;
    private final int firstDataSector;
    private final int sectors;

    /** Lays the image out; {@code recorded} is the time every date field holds, in UTC. */
    Iso9660Writer(String volumeId, LocalDateTime recorded, List<IsoFile> files) {
        this.volumeId = volumeId;
        this.recorded = recorded;
        this.primaryRootSize = directorySize(files, false);
        this.jolietRootSize = directorySize(files, true);
        this.jolietRoot = PRIMARY_ROOT + primaryRootSize / SECTOR;
        this.firstDataSector = jolietRoot + jolietRootSize / SECTOR;
        List<Placed> placed = new ArrayList<>();
        long next = firstDataSector;
        for (IsoFile file : files) {
            // an empty file points where its data would begin, as genisoimage does; no reader reads it
            placed.add(new Placed(file, (int) next));
            next += sectorsFor(file.size());
            if (next > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("the files do not fit in an ISO 9660 image");
            }
        }
        this.placed = List.copyOf(placed);
        this.sectors = (int) next;
    }

    /** 8.4.8: the Volume Space Size, in 2048-byte sectors. */
    int sectors() {
        return sectors;
    }

    void writeTo(OutputStream out) throws IOException {
        byte[] head = new byte[firstDataSector * SECTOR];
        volumeDescriptor(head, PRIMARY_DESCRIPTOR, false);
        volumeDescriptor(head, JOLIET_DESCRIPTOR, true);
        terminator(head);
        pathTable(head, PRIMARY_L_TABLE, PRIMARY_ROOT, false);
        pathTable(head, PRIMARY_M_TABLE, PRIMARY_ROOT, true);
        pathTable(head, JOLIET_L_TABLE, jolietRoot, false);
        pathTable(head, JOLIET_M_TABLE, jolietRoot, true);
        rootDirectory(head, PRIMARY_ROOT, primaryRootSize, false);
        rootDirectory(head, jolietRoot, jolietRootSize, true);
        out.write(head);
        for (Placed p : placed) {
            byte[] content = p.file().contentForWriting();
            out.write(content);
            out.write(new byte[(int) ((long) sectorsFor(content.length) * SECTOR - content.length)]);
        }
    }

    /** 8.4 the Primary Volume Descriptor, or 8.5 the Supplementary Volume Descriptor that makes Joliet. */
    private void volumeDescriptor(byte[] image, int sector, boolean joliet) {
        Fields d = new Fields(image, sector * SECTOR);
        d.uint8(1, joliet ? 2 : 1) // 8.4.1 / 8.5.1 Volume Descriptor Type
                .text(2, 5, "CD001") // 8.4.2 Standard Identifier
                .uint8(7, 1) // 8.4.3 Volume Descriptor Version
                .uint8(8, 0); // 8.4.4 Unused Field / 8.5.3 Volume Flags: only registered escape sequences
        identifier(d, joliet, 9, 32, ""); // 8.4.5 System Identifier
        identifier(d, joliet, 41, 32, volumeId); // 8.4.6 Volume Identifier
        d.uint32Both(81, sectors); // 8.4.8 Volume Space Size
        if (joliet) {
            d.text(89, 3, "%/E"); // 8.5.6 Escape Sequences: Joliet, UCS-2 level 3; the rest stay zero
        }
        d.uint16Both(121, 1) // 8.4.10 Volume Set Size
                .uint16Both(125, 1) // 8.4.11 Volume Sequence Number
                .uint16Both(129, SECTOR) // 8.4.12 Logical Block Size
                .uint32Both(133, PATH_TABLE_SIZE) // 8.4.13 Path Table Size
                .uint32Lsb(141, joliet ? JOLIET_L_TABLE : PRIMARY_L_TABLE) // 8.4.14 Location of Type L Path Table
                .uint32Lsb(145, 0) // 8.4.15 Location of Optional Type L Path Table: none
                .uint32Msb(149, joliet ? JOLIET_M_TABLE : PRIMARY_M_TABLE) // 8.4.16 Location of Type M Path Table
                .uint32Msb(153, 0); // 8.4.17 Location of Optional Type M Path Table: none
        int root = joliet ? jolietRoot : PRIMARY_ROOT;
        int rootSize = joliet ? jolietRootSize : primaryRootSize;
        directoryRecord(image, sector * SECTOR + 156, root, rootSize, DIRECTORY, SELF); // 8.4.18, BP 157-190
        identifier(d, joliet, 191, 128, ""); // 8.4.19 Volume Set Identifier
        identifier(d, joliet, 319, 128, ""); // 8.4.20 Publisher Identifier
        identifier(d, joliet, 447, 128, ""); // 8.4.21 Data Preparer Identifier
        identifier(d, joliet, 575, 128, ""); // 8.4.22 Application Identifier
        identifier(d, joliet, 703, 37, ""); // 8.4.23 Copyright File Identifier
        identifier(d, joliet, 740, 37, ""); // 8.4.24 Abstract File Identifier
        identifier(d, joliet, 777, 37, ""); // 8.4.25 Bibliographic File Identifier
        d.longDate(814, Optional.of(recorded)) // 8.4.26 Volume Creation Date and Time
                .longDate(831, Optional.of(recorded)) // 8.4.27 Volume Modification Date and Time
                .longDate(848, Optional.empty()) // 8.4.28 Volume Expiration Date and Time: not specified
                .longDate(865, Optional.empty()) // 8.4.29 Volume Effective Date and Time: not specified
                .uint8(882, 1); // 8.4.30 File Structure Version; 8.4.31-33 (BP 883-2048) stay zero
    }

    /** An identifier field: ASCII filled with spaces in the primary descriptor, UCS-2 in Joliet's. */
    private static void identifier(Fields d, boolean joliet, int bp, int length, String value) {
        if (joliet) {
            d.ucs2(bp, length, value);
        } else {
            d.text(bp, length, value);
        }
    }

    /** 8.3 the Volume Descriptor Set Terminator. */
    private static void terminator(byte[] image) {
        new Fields(image, TERMINATOR * SECTOR)
                .uint8(1, 255) // 8.3.1 Volume Descriptor Type
                .text(2, 5, "CD001") // 8.3.2 Standard Identifier
                .uint8(7, 1); // 8.3.3 Volume Descriptor Version; 8.3.4 (BP 8-2048) stays zero
    }

    /**
     * 9.4 a Path Table of one record, the root directory's: Type L records its numbers least
     * significant byte first, Type M most significant byte first.
     */
    private static void pathTable(byte[] image, int sector, int root, boolean typeM) {
        Fields t = new Fields(image, sector * SECTOR)
                .uint8(1, 1) // 9.4.1 Length of Directory Identifier
                .uint8(2, 0); // 9.4.2 Extended Attribute Record Length
        if (typeM) {
            t.uint32Msb(3, root).uint16Msb(7, 1); // 9.4.3 Location of Extent, 9.4.4 Parent Directory Number
        } else {
            t.uint32Lsb(3, root).uint16Lsb(7, 1);
        }
        t.bytes(9, SELF); // 9.4.5 Directory Identifier (the root's); 9.4.6 Padding Field stays zero
    }

    /**
     * 6.8 a root directory: the records of itself and its parent (6.8.2.2, the root is its own
     * parent), then one per file in the order of 9.3 (by identifier). A record never crosses the
     * end of a sector (6.8.1.1): the rest of that sector stays zero.
     */
    private void rootDirectory(byte[] image, int sector, int size, boolean joliet) {
        int start = sector * SECTOR;
        int used = directoryRecord(image, start, sector, size, DIRECTORY, SELF);
        used += directoryRecord(image, start + used, sector, size, DIRECTORY, PARENT);
        for (Placed p : sorted(placed, joliet)) {
            byte[] id = identifier(p.file(), joliet);
            used = place(used, recordLength(id));
            used += directoryRecord(image, start + used, p.extent(), p.file().size(), 0, id);
        }
    }

    /** 9.1 one Directory Record at {@code image[at]}; returns its length. */
    private int directoryRecord(byte[] image, int at, int extent, int size, int flags, byte[] id) {
        int length = recordLength(id);
        new Fields(image, at)
                .uint8(1, length) // 9.1.1 Length of Directory Record
                .uint8(2, 0) // 9.1.2 Extended Attribute Record Length
                .uint32Both(3, extent) // 9.1.3 Location of Extent
                .uint32Both(11, size) // 9.1.4 Data Length
                .shortDate(19, recorded) // 9.1.5 Recording Date and Time
                .uint8(26, flags) // 9.1.6 File Flags
                .uint8(27, 0) // 9.1.7 File Unit Size
                .uint8(28, 0) // 9.1.8 Interleave Gap Size
                .uint16Both(29, 1) // 9.1.9 Volume Sequence Number
                .uint8(33, id.length) // 9.1.10 Length of File Identifier
                .bytes(34, id); // 9.1.11 File Identifier; 9.1.12 Padding Field stays zero
        return length;
    }

    /** 9.1.1: 33 bytes, the identifier, and a padding byte when the identifier's length is even. */
    private static int recordLength(byte[] id) {
        return 33 + id.length + (id.length % 2 == 0 ? 1 : 0);
    }

    /** 6.8.1.1: where a record of that length starts after {@code used} bytes of a directory. */
    private static int place(int used, int length) {
        return used % SECTOR + length > SECTOR ? (used / SECTOR + 1) * SECTOR : used;
    }

    /** A root directory's Data Length: whole sectors holding all its records. */
    private static int directorySize(List<IsoFile> files, boolean joliet) {
        int used = 2 * recordLength(SELF);
        for (IsoFile file : files) {
            int length = recordLength(identifier(file, joliet));
            used = place(used, length) + length;
        }
        return sectorsFor(used) * SECTOR;
    }

    private static byte[] identifier(IsoFile file, boolean joliet) {
        return joliet
                ? file.jolietIdentifier().getBytes(StandardCharsets.UTF_16BE)
                : file.primaryIdentifier().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * 9.3: records ordered by identifier. Names have no extension and every d-character sorts after
     * SEPARATOR 1, so comparing whole identifiers byte by byte is that order; Joliet's UCS-2
     * identifiers are ordered the same way, as genisoimage does.
     */
    private static List<Placed> sorted(List<Placed> placed, boolean joliet) {
        List<Placed> sorted = new ArrayList<>(placed);
        sorted.sort(Comparator.comparing(p -> identifier(p.file(), joliet), Arrays::compareUnsigned));
        return sorted;
    }

    private static int sectorsFor(int bytes) {
        return (int) ((bytes + (long) SECTOR - 1) / SECTOR);
    }
}
