package dev.bigfleet.proxmox.engine;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * List cursors: a version byte, the position reached, and a MAC. Version 1 holds the revision a
 * delta continues after; version 2 a position on the ring of a first capped List (bound, start,
 * reached). A cursor that does not verify (garbage, altered, from another incarnation of an
 * in-memory provider, positions that cannot be) decodes as "no cursor", which means a full list:
 * the caller may see more than it asked for, but never misses a change.
 */
final class CursorCodec {
    private static final byte SINCE = 1;
    private static final byte RING = 2;
    private static final int MAC_BYTES = 8;
    private final SecretKeySpec key;

    CursorCodec(byte[] key) {
        this.key = new SecretKeySpec(key.clone(), "HmacSHA256");
    }

    byte[] encode(long revision) {
        ByteBuffer body = ByteBuffer.allocate(1 + Long.BYTES).put(SINCE).putLong(revision);
        return seal(body.array());
    }

    byte[] encode(ListCursor cursor) {
        if (cursor instanceof ListCursor.RingPosition ring) {
            ByteBuffer body = ByteBuffer.allocate(1 + 3 * Long.BYTES)
                    .put(RING)
                    .putLong(ring.bound())
                    .putLong(ring.start())
                    .putLong(ring.reached());
            return seal(body.array());
        }
        return encode(((ListCursor.Since) cursor).revision());
    }

    Optional<ListCursor> decode(byte[] cursor) {
        if (cursor == null || cursor.length < 1 + MAC_BYTES) {
            return Optional.empty();
        }
        int bodyBytes = cursor.length - MAC_BYTES;
        boolean knownShape = (cursor[0] == SINCE && bodyBytes == 1 + Long.BYTES)
                || (cursor[0] == RING && bodyBytes == 1 + 3 * Long.BYTES);
        if (!knownShape) {
            return Optional.empty();
        }
        byte[] body = Arrays.copyOf(cursor, bodyBytes);
        byte[] expected = Arrays.copyOf(mac(body), MAC_BYTES);
        byte[] given = Arrays.copyOfRange(cursor, bodyBytes, cursor.length);
        if (!MessageDigest.isEqual(expected, given)) {
            return Optional.empty();
        }
        ByteBuffer in = ByteBuffer.wrap(body, 1, bodyBytes - 1);
        if (cursor[0] == SINCE) {
            long revision = in.getLong();
            return revision < 0 ? Optional.empty() : Optional.of(new ListCursor.Since(revision));
        }
        long bound = in.getLong();
        long start = in.getLong();
        long reached = in.getLong();
        boolean possible = start >= 1 && start <= bound && reached >= 1 && reached <= bound;
        return possible ? Optional.of(new ListCursor.RingPosition(bound, start, reached)) : Optional.empty();
    }

    private byte[] seal(byte[] body) {
        byte[] sealed = Arrays.copyOf(body, body.length + MAC_BYTES);
        System.arraycopy(mac(body), 0, sealed, body.length, MAC_BYTES);
        return sealed;
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
