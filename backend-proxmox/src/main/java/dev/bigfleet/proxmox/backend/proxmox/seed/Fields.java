package dev.bigfleet.proxmox.backend.proxmox.seed;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.Optional;

/**
 * Writes the recorded forms of ECMA-119 (2nd edition) into one structure of an image: a volume
 * descriptor, a directory record or a path table record. Fields are addressed by byte position as
 * the standard numbers them, counted from 1 at the start of the structure ("BP 81 to 88"), so
 * that the code reads like the standard's tables. All times are written in UTC (offset 0).
 */
final class Fields {
    private final byte[] bytes;
    private final int start;

    /** The structure that begins at {@code bytes[start]} (its BP 1). */
    Fields(byte[] bytes, int start) {
        this.bytes = bytes;
        this.start = start;
    }

    /** 7.1.1: an 8-bit unsigned number. */
    Fields uint8(int bp, int value) {
        if (value < 0 || value > 0xFF) {
            throw new IllegalArgumentException("not an 8-bit number: " + value);
        }
        bytes[at(bp)] = (byte) value;
        return this;
    }

    /** 7.2.1: a 16-bit number, least significant byte first. */
    Fields uint16Lsb(int bp, int value) {
        check16(value);
        bytes[at(bp)] = (byte) value;
        bytes[at(bp) + 1] = (byte) (value >>> 8);
        return this;
    }

    /** 7.2.2: a 16-bit number, most significant byte first. */
    Fields uint16Msb(int bp, int value) {
        check16(value);
        bytes[at(bp)] = (byte) (value >>> 8);
        bytes[at(bp) + 1] = (byte) value;
        return this;
    }

    /** 7.2.3: a 16-bit number recorded twice in 4 bytes, first least, then most significant byte first. */
    Fields uint16Both(int bp, int value) {
        return uint16Lsb(bp, value).uint16Msb(bp + 2, value);
    }

    /** 7.3.1: a 32-bit number, least significant byte first. */
    Fields uint32Lsb(int bp, int value) {
        check32(value);
        for (int i = 0; i < 4; i++) {
            bytes[at(bp) + i] = (byte) (value >>> (8 * i));
        }
        return this;
    }

    /** 7.3.2: a 32-bit number, most significant byte first. */
    Fields uint32Msb(int bp, int value) {
        check32(value);
        for (int i = 0; i < 4; i++) {
            bytes[at(bp) + i] = (byte) (value >>> (8 * (3 - i)));
        }
        return this;
    }

    /** 7.3.3: a 32-bit number recorded twice in 8 bytes, first least, then most significant byte first. */
    Fields uint32Both(int bp, int value) {
        return uint32Lsb(bp, value).uint32Msb(bp + 4, value);
    }

    /** Bytes as they are, such as a file identifier. */
    Fields bytes(int bp, byte[] value) {
        System.arraycopy(value, 0, bytes, at(bp), value.length);
        return this;
    }

    /**
     * An identifier of a primary volume descriptor (7.4, 8.4): its characters in ASCII, the rest of
     * the field filled with spaces (0x20).
     */
    Fields text(int bp, int length, String value) {
        byte[] text = value.getBytes(StandardCharsets.US_ASCII);
        if (text.length > length) {
            throw new IllegalArgumentException("longer than its " + length + "-byte field: " + value);
        }
        for (int i = 0; i < length; i++) {
            bytes[at(bp) + i] = i < text.length ? text[i] : (byte) ' ';
        }
        return this;
    }

    /**
     * The same identifier in a Joliet supplementary volume descriptor (8.5): UCS-2, most significant
     * byte first, the rest of the field filled with UCS-2 spaces (0x00 0x20). A field of odd length
     * keeps a last byte of 0x00, as genisoimage writes it.
     */
    Fields ucs2(int bp, int length, String value) {
        byte[] text = value.getBytes(StandardCharsets.UTF_16BE);
        if (text.length > length) {
            throw new IllegalArgumentException("longer than its " + length + "-byte field: " + value);
        }
        for (int i = 0; i + 1 < length; i += 2) {
            bytes[at(bp) + i] = i < text.length ? text[i] : 0;
            bytes[at(bp) + i + 1] = i < text.length ? text[i + 1] : (byte) ' ';
        }
        return this;
    }

    /**
     * 8.4.26.1: a date and time of a volume descriptor in 17 bytes, the digits of {@code
     * YYYYMMDDhhmmsscc} and the offset from Greenwich in 15-minute steps (0 here). An empty one is
     * "not specified": sixteen {@code 0} digits and a zero offset.
     */
    Fields longDate(int bp, Optional<LocalDateTime> utc) {
        String digits = utc.map(t -> String.format(
                        "%04d%02d%02d%02d%02d%02d%02d",
                        t.getYear(),
                        t.getMonthValue(),
                        t.getDayOfMonth(),
                        t.getHour(),
                        t.getMinute(),
                        t.getSecond(),
                        t.getNano() / 10_000_000))
                .orElse("0".repeat(16));
        return text(bp, 16, digits).uint8(bp + 16, 0);
    }

    /**
     * 9.1.5: the recording date and time of a directory record in 7 bytes: years since 1900, month,
     * day, hour, minute, second, and the offset from Greenwich in 15-minute steps (0 here).
     */
    Fields shortDate(int bp, LocalDateTime utc) {
        return uint8(bp, utc.getYear() - 1900)
                .uint8(bp + 1, utc.getMonthValue())
                .uint8(bp + 2, utc.getDayOfMonth())
                .uint8(bp + 3, utc.getHour())
                .uint8(bp + 4, utc.getMinute())
                .uint8(bp + 5, utc.getSecond())
                .uint8(bp + 6, 0);
    }

    private int at(int bp) {
        return start + bp - 1;
    }

    private static void check16(int value) {
        if (value < 0 || value > 0xFFFF) {
            throw new IllegalArgumentException("not a 16-bit number: " + value);
        }
    }

    private static void check32(int value) {
        if (value < 0) {
            throw new IllegalArgumentException("not a 32-bit number this writer records: " + value);
        }
    }
}
