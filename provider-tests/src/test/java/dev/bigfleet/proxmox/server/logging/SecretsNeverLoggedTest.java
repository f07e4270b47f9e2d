package dev.bigfleet.proxmox.server.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.testing.TestingProvider;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Neither the API token secret nor a bootstrap blob reaches any log line at any level: every
 * logger of the JVM is forced to TRACE while the secrets travel through startup, every lifecycle
 * RPC, failures, refusals and the HTTP surface.
 */
class SecretsNeverLoggedTest {
    private static final String TOKEN = "pve-api-token-secret-4c1d9e7a-0b3f-42d8-9a61-e5f0c2b7d813";
    private static final String MARKER = "BOOTSTRAP-MARKER-5b0f3c";
    private static final byte[] BLOB = ("#!/bin/sh\nkubeadm join 10.0.0.1:6443 --token q9x2zk.8w3rj5m1n0p4t7vy "
                    + MARKER + "\n")
            .getBytes(StandardCharsets.UTF_8);

    @Test
    void noSecretInAnyLogLineAtAnyLevel() throws Exception {
        try (CapturedLogs logs = new CapturedLogs(Level.TRACE)) {
            try (TestingProvider live = TestingProvider.builder()
                    .flags(
                            "--seed-count",
                            "8",
                            "--fake-latency",
                            "0s",
                            "--fake-faults",
                            "--proxmox-token-secret",
                            TOKEN,
                            "--reconcile-interval",
                            "100ms")
                    .build()) {
                String ok = "proxmox/OnDemand/pve.large/pve-a/000";
                String failing = "proxmox/OnDemand/pve.large/pve-a/001";
                live.client().fullLifecycle(ok, BLOB);
                live.client().create(failing);
                live.client().awaitState(failing, MachineState.MACHINE_STATE_IDLE);
                live.client().configure(failing, "fault-error", BLOB);
                live.client().awaitState(failing, MachineState.MACHINE_STATE_FAILED);
                // refused: wrong state (FAILED), unknown machine, and a blob over the 1 MiB limit
                assertThatThrownBy(() -> live.client().configure(failing, "prod-1", BLOB))
                        .isInstanceOf(StatusRuntimeException.class);
                assertThatThrownBy(() -> live.client().configure("no/such/machine", "prod-1", BLOB))
                        .isInstanceOf(StatusRuntimeException.class);
                byte[] huge = Arrays.copyOf(BLOB, 1024 * 1024 + 1);
                assertThatThrownBy(() -> live.client().configure(ok, "prod-1", huge))
                        .isInstanceOf(StatusRuntimeException.class);
                for (String path : List.of(
                        "/metrics",
                        "/api/v1/summary",
                        "/api/v1/machines",
                        "/api/v1/nodes",
                        "/api/v1/failures",
                        "/admin/",
                        "/readyz")) {
                    live.get(path);
                }
                Thread.sleep(300); // a few reconcile runs
            }
            // a startup that fails after reading the secret
            assertThatThrownBy(() -> TestingProvider.builder()
                            .flags("--proxmox-token-secret", TOKEN, "--prices", "pve.large=-1")
                            .noHttp()
                            .build())
                    .hasMessageNotContaining(TOKEN);

            assertThat(logs.events)
                    .as("DEBUG and TRACE were really on")
                    .anyMatch(e ->
                            e.getLevel() == Level.DEBUG && e.getLoggerName().equals("rpc"));
            assertThat(logs.lines).as("lines captured").hasSizeGreaterThan(50);
            List<String> forms = List.of(
                    TOKEN,
                    MARKER,
                    Base64.getEncoder().encodeToString(BLOB),
                    Base64.getEncoder()
                            .encodeToString(MARKER.getBytes(StandardCharsets.UTF_8))
                            .substring(0, 16),
                    HexFormat.of().formatHex(MARKER.getBytes(StandardCharsets.UTF_8)),
                    HexFormat.of().withUpperCase().formatHex(MARKER.getBytes(StandardCharsets.UTF_8)),
                    "q9x2zk.8w3rj5m1n0p4t7vy");
            for (String line : logs.lines) {
                for (String secret : forms) {
                    assertThat(line).as("a log line").doesNotContain(secret);
                }
            }
        }
    }
}
