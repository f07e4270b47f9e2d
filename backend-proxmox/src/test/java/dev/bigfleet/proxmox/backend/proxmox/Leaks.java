package dev.bigfleet.proxmox.backend.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Asserts that neither the token secret nor a bootstrap blob appears in any captured log line. */
final class Leaks {
    /** A blob that looks like what a join script carries, distinctive enough to search for. */
    static final String BLOB_TEXT = "#!/bin/sh\nkubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef"
            + " --discovery-token-ca-cert-hash sha256:feedfacefeedfacefeedface\n";

    static final byte[] BLOB = BLOB_TEXT.getBytes(StandardCharsets.UTF_8);

    private Leaks() {}

    static void assertNoneLogged() {
        for (String line : CapturedLog.lines()) {
            assertNoSecret(line);
        }
    }

    static void assertNoSecret(String text) {
        assertThat(text)
                .doesNotContain(SimulatorBackends.SECRET)
                .doesNotContain("abcdef.0123456789abcdef")
                .doesNotContain(Base64.getEncoder().encodeToString(BLOB));
    }
}
