package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class BlobRedactionTest {
    private static final byte[] BLOB = "join-token: abc.def.ghi\n".getBytes(StandardCharsets.UTF_8);

    @Test
    void aHookEchoingTheBlobDoesNotLeakItIntoLastError() {
        String echoed = "guest command exited 1: bad input join-token: abc.def.ghi";
        assertThat(BlobRedaction.redact(echoed, BLOB))
                .isEqualTo("guest command exited 1: bad input " + BlobRedaction.REDACTED)
                .doesNotContain("abc.def.ghi");
        String base64 = "guest command exited 2: " + Base64.getEncoder().encodeToString(BLOB);
        assertThat(BlobRedaction.redact(base64, BLOB))
                .doesNotContain(Base64.getEncoder().encodeToString(BLOB));
    }

    @Test
    void ordinaryMessagesAndTinyBlobsAreLeftAlone() {
        assertThat(BlobRedaction.redact("guest command exited 1: no space left", BLOB))
                .isEqualTo("guest command exited 1: no space left");
        assertThat(BlobRedaction.redact("exit 1: ok", "ok".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("exit 1: ok");
    }
}
