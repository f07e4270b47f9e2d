package dev.bigfleet.proxmox.spi.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A bootstrap blob shaped like a cluster-join script, with a join token distinctive enough to search
 * for: the blob is a credential, so no message, cause or log line may ever quote it.
 */
public final class TestBlob {
    /** The join token inside {@link #BLOB}. */
    public static final String SECRET = "j01n-t0k3n.c0ntr4ct5ecr3t7f3a";

    public static final byte[] BLOB = ("#!/bin/sh\nkubeadm join 10.0.0.1:6443 --token " + SECRET
                    + " --discovery-token-ca-cert-hash sha256:0f1e2d3c4b5a69788796a5b4c3d2e1f0\n")
            .getBytes(StandardCharsets.UTF_8);

    private TestBlob() {}

    /** A fresh copy of {@link #BLOB}, since a backend may do as it likes with the array it is given. */
    public static byte[] blob() {
        return BLOB.clone();
    }

    /** Asserts that neither {@code text} quotes the blob's token, raw, base64 or hex. */
    public static void assertNotQuoted(String text) {
        assertThat(String.valueOf(text))
                .as("text that must not quote the bootstrap blob")
                .doesNotContain(SECRET)
                .doesNotContain(Base64.getEncoder().encodeToString(BLOB))
                .doesNotContain(HexFormat.of().formatHex(SECRET.getBytes(StandardCharsets.UTF_8)));
    }

    /** Asserts that no message in the cause chain of {@code failure} quotes the blob. */
    public static void assertNotQuoted(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            assertNotQuoted(t.getMessage());
            assertNotQuoted(t.toString());
        }
    }
}
