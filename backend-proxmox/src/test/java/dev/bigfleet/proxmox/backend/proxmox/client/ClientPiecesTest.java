package dev.bigfleet.proxmox.backend.proxmox.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClientPiecesTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void formParamsRepeatArraysAndEncodePlus() {
        FormParams p = FormParams.builder()
                .addAll("command", List.of("/bin/sh", "-c", "a+b c"))
                .flag("full", true)
                .build();
        assertThat(p.encode()).isEqualTo("command=%2Fbin%2Fsh&command=-c&command=a%2Bb+c&full=1");
        assertThat(p.names()).containsExactly("command", "full");
    }

    @Test
    void pathSegmentsKeepUpidCharacters() {
        assertThat(PathSegment.encode("UPID:pve1:0003A2F1:0B7C41D2:66F1A0B3:qmclone:9000:bigfleet@pve!autoscaler:"))
                .isEqualTo("UPID:pve1:0003A2F1:0B7C41D2:66F1A0B3:qmclone:9000:bigfleet@pve!autoscaler:");
        assertThat(PathSegment.encode("a b/c")).isEqualTo("a%20b%2Fc");
    }

    @Test
    void proxmoxJsonQuirksAreRead() throws Exception {
        VmConfig c = VmConfig.from(json.readTree("{\"memory\":\"current=4096\",\"cores\":\"2\",\"agent\":"
                + "\"enabled=1,fstrim_cloned_disks=1\",\"template\":\"1\",\"tags\":\"B;a, c\"}"));
        assertThat(c.memoryMib()).isEqualTo(4096);
        assertThat(c.cores()).isEqualTo(2);
        assertThat(c.agentEnabled()).isTrue();
        assertThat(c.template()).isTrue();
        assertThat(c.tags().wire()).isEqualTo("a;b;c");
        assertThat(VmConfig.agent(Optional.of("0"))).isFalse();
        assertThat(VmConfig.agent(Optional.of("enabled=0"))).isFalse();
        ClusterResource r = ClusterResource.from(json.readTree(
                "{\"vmid\":105,\"type\":\"qemu\",\"node\":\"pve1\"," + "\"status\":\"unknown\",\"lock\":\"clone\"}"));
        assertThat(r.template()).isEmpty();
        assertThat(r.name()).isEmpty();
        assertThat(r.lock()).contains("clone");
        assertThat(Upid.parse("op", "UPID:pve-1:0003A2F1:0B7C41D2:66F1A0B3:qmclone:9000:bigfleet@pve!autoscaler:"))
                .satisfies(u -> {
                    assertThat(u.node()).isEqualTo("pve-1");
                    assertThat(u.type()).isEqualTo("qmclone");
                });
        assertThat(TaskStatus.from(json.readTree("{\"status\":\"stopped\",\"exitstatus\":\"WARNINGS: 2\"}"))
                        .succeeded())
                .isTrue();
        assertThat(TaskStatus.from(json.readTree("{\"status\":\"stopped\"}")).failure())
                .isEqualTo("unexpected status");
        ExecStatus killed = ExecStatus.from(json.readTree("{\"exited\":1,\"signal\":9}"));
        assertThat(killed.succeeded()).isFalse();
        assertThat(killed.signal()).hasValue(9);
    }

    @Test
    void sdnVnetsAreReadWithTheirZoneAndTag() throws Exception {
        assertThat(SdnVnet.from(json.readTree("{\"vnet\":\"tenant1\",\"zone\":\"evpn1\",\"tag\":10001,"
                        + "\"type\":\"vnet\",\"alias\":\"Tenant one\",\"digest\":\"ab\"}")))
                .isEqualTo(new SdnVnet("tenant1", "evpn1", Optional.of(10001)));
        assertThat(SdnVnet.from(json.readTree("{\"vnet\":\"dmz\",\"zone\":\"vlanz\",\"tag\":\"30\"}")))
                .as("a number rendered as a string")
                .isEqualTo(new SdnVnet("dmz", "vlanz", Optional.of(30)));
        assertThat(SdnVnet.from(json.readTree("{\"vnet\":\"plain\",\"zone\":\"simple1\"}"))
                        .tag())
                .isEmpty();
    }

    @Test
    void retryClassification() {
        PveApiException locked = PveApiException.http("POST clone", 500, "VM is locked (backup)", Map.of());
        PveApiException missing = PveApiException.http(
                "GET config", 500, "Configuration file 'nodes/pve1/qemu-server/105.conf' does not exist", Map.of());
        PveApiException bare500 = PveApiException.http("GET x", 500, "", Map.of());
        PveApiException forward = PveApiException.http("POST agent/exec", 595, "", Map.of());
        PveApiException lost = PveApiException.transport("POST clone", PveApiException.Kind.TRANSPORT, "reset", null);
        PveApiException refused =
                PveApiException.transport("POST clone", PveApiException.Kind.CONNECT, "refused", null);
        PveApiException auth = PveApiException.http("GET /version", 401, "", Map.of());

        assertThat(FailureClassifier.retryable(locked, CallSafety.ONCE)).isTrue();
        assertThat(FailureClassifier.retryable(missing, CallSafety.REPEATABLE)).isFalse();
        assertThat(missing.vmMissing()).isTrue();
        assertThat(FailureClassifier.retryable(bare500, CallSafety.ONCE)).isTrue();
        assertThat(FailureClassifier.retryable(forward, CallSafety.ONCE)).isTrue();
        assertThat(FailureClassifier.retryable(lost, CallSafety.ONCE)).isFalse();
        assertThat(FailureClassifier.retryable(lost, CallSafety.REPEATABLE)).isTrue();
        assertThat(FailureClassifier.retryable(refused, CallSafety.ONCE)).isTrue();
        assertThat(FailureClassifier.retryable(auth, CallSafety.REPEATABLE)).isFalse();
        assertThat(auth.getMessage()).contains("check --proxmox-token-id");
        assertThat(FailureClassifier.unreachable(refused)).isTrue();
        assertThat(FailureClassifier.unreachable(missing)).isFalse();
    }

    @Test
    void secretsNeverShowInToString() {
        TokenSecret secret = new TokenSecret("abc-123");
        assertThat(secret.toString()).isEqualTo("<redacted>");
        assertThat(new ApiToken("u@pve!t", secret).toString()).isEqualTo("u@pve!t");
        assertThat(new ApiToken("u@pve!t", secret).authorization()).isEqualTo("PVEAPIToken=u@pve!t=abc-123");
    }
}
