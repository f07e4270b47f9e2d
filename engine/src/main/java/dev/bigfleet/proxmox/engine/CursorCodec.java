package dev.bigfleet.proxmox.engine;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.OptionalLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * List cursors: a version byte, the revision reached, and a MAC. A cursor that does not verify
 * (garbage, altered, from another incarnation of an in-memory provider) decodes as "no cursor",
 * which means a full list: the caller may see more than it asked for, but never misses a change.
 */
public final class CursorCodec {
    private static final byte VERSION = 1;
    private static final int MAC_BYTES = 8;
    private final SecretKeySpec key;

    public CursorCodec(byte[] key) {
        this.key = new SecretKeySpec(key.clone(), "HmacSHA256");
    }

    public byte[] encode(long revision) {
        ByteBuffer body = ByteBuffer.allocate(1 + Long.BYTES).put(VERSION).putLong(revision);
        byte[] mac = mac(body.array());
        return ByteBuffer.allocate(body.capacity() + MAC_BYTES)
                .put(body.array())
                .put(mac, 0, MAC_BYTES)
                .array();
    }

    public OptionalLong decode(byte[] cursor) {
        if (cursor == null || cursor.length != 1 + Long.BYTES + MAC_BYTES || cursor[0] != VERSION) {
            return OptionalLong.empty();
        }
        byte[] body = Arrays.copyOf(cursor, 1 + Long.BYTES);
        byte[] expected = Arrays.copyOf(mac(body), MAC_BYTES);
        byte[] given = Arrays.copyOfRange(cursor, body.length, cursor.length);
        if (!MessageDigest.isEqual(expected, given)) {
            return OptionalLong.empty();
        }
        long revision = ByteBuffer.wrap(body, 1, Long.BYTES).getLong();
        return revision < 0 ? OptionalLong.empty() : OptionalLong.of(revision);
    }

    private byte[] mac(byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
