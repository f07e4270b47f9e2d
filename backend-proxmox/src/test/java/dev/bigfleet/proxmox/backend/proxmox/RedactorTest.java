package dev.bigfleet.proxmox.backend.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedactorTest {
    @Test
    void scrubsTheSecretAndTheBlobWholeAsBase64AndLineByLine() {
        byte[] blob = "line one of the blob\nsecond secret line\nab\n".getBytes(StandardCharsets.UTF_8);
        Redactor r = Redactor.of("tok-secret-1").withBlob(blob);
        assertThat(r.scrub("auth tok-secret-1 failed")).isEqualTo("auth <redacted> failed");
        assertThat(r.scrub("echo: second secret line")).isEqualTo("echo: <redacted>");
        assertThat(r.scrub(Base64.getEncoder().encodeToString(blob))).isEqualTo("<redacted>");
        assertThat(r.scrub("ab stays")).isEqualTo("ab stays");
        Redactor join = Redactor.of("x")
                .withBlob("kubeadm join --token abcdef.0123456789abcdef\n".getBytes(StandardCharsets.UTF_8));
        assertThat(join.scrub("token abcdef.0123456789abcdef rejected")).isEqualTo("token <redacted> rejected");
        assertThat(join.scrub("--discovery-token-ca-cert-hash missing"))
                .isEqualTo("--discovery-token-ca-cert-hash missing");
    }

    @Test
    void guestOutputKeepsTheLast2KiBOnACharacterBoundary() {
        assertThat(GuestOutput.tail("  short \n")).isEqualTo("short");
        String tail = GuestOutput.tail("é".repeat(3000));
        assertThat(tail).startsWith("…").doesNotContain("\uFFFD");
        assertThat(tail.substring(1).getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(2048);
    }

    @Test
    void blobsAreCutIntoAgentSizedChunks() {
        assertThat(BootstrapDelivery.chunks(new byte[0])).hasSize(1);
        assertThat(BootstrapDelivery.chunks(new byte[46080])).hasSize(1);
        assertThat(BootstrapDelivery.chunks(new byte[46081])).hasSize(2);
        assertThat(Base64.getEncoder().encodeToString(new byte[BootstrapDelivery.CHUNK_BYTES]))
                .hasSize(61440);
    }

    @Test
    void guestScriptsQuotePaths() {
        assertThat(GuestScripts.quote("/run/it's")).isEqualTo("'/run/it'\\''s'");
        assertThat(GuestScripts.drain(0, List.of())).last().asString().endsWith("--timeout=1s");
        assertThat(GuestScripts.hook(List.of("/usr/bin/env", "bash"), "/run/b"))
                .containsExactly("/usr/bin/env", "bash", "/run/b");
    }
}
