package dev.bigfleet.proxmox.server.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DeleteRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineList;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.testing.ClientCertificate;
import dev.bigfleet.proxmox.testing.TestingCertificates;
import dev.bigfleet.proxmox.testing.TestingProvider;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under mTLS ({@code --tls-ca}) a lifecycle call's fence token must be the client certificate's
 * shard's ({@code bigfleet://shard/<id>}, BigFleet ADR-0048), over a real TLS socket with
 * certificates made here: a refused call is PERMISSION_DENIED, moves no fence mark and changes
 * nothing, is counted by reason and logged in one WARN line. A certificate naming no shard reads,
 * and mutates only with {@code --tls-unnamed-clients mutate}.
 */
class ShardIdentityTest {
    private static final String REFUSAL_LINE = "mutation refused: the client certificate may not send this fence token";

    @TempDir
    static Path dir;

    private static TestingCertificates certs;
    private static ClientCertificate shardA;
    private static ClientCertificate shardB;
    private static ClientCertificate noShard;
    private static ClientCertificate admin;
    private static ClientCertificate readOnly;
    private static ClientCertificate twoShards;
    private static ClientCertificate emptyShard;
    private static ClientCertificate foreignShardA;

    private final List<ManagedChannel> channels = new ArrayList<>();

    @BeforeAll
    static void makeCertificates() throws Exception {
        certs = TestingCertificates.create(dir);
        shardA = certs.client("shard-a", "bigfleet://shard/shard-a", "spiffe://example.org/ns/bigfleet");
        shardB = certs.client("shard-b", "bigfleet://shard/shard-b");
        noShard = new ClientCertificate(certs.clientCert(), certs.clientKey());
        admin = certs.client("admin", "bigfleet://admin");
        readOnly = certs.client("readonly", "bigfleet://readonly");
        twoShards = certs.client("two-shards", "bigfleet://shard/shard-a", "bigfleet://shard/shard-b");
        emptyShard = certs.client("empty-shard", "bigfleet://shard/");
        foreignShardA = certs.otherCaClient("foreign-shard-a", "bigfleet://shard/shard-a");
    }

    @AfterEach
    void closeChannels() {
        channels.forEach(ManagedChannel::shutdownNow);
    }

    private static TestingProvider mutualTls(String... flags) throws Exception {
        return TestingProvider.builder()
                .seedCount(4)
                .fakeLatency(Duration.ZERO)
                .mutualTls(certs)
                .flags(flags)
                .build();
    }

    /** A stub over a channel of its own that presents {@code certificate}. */
    private CapacityProviderBlockingStub as(TestingProvider provider, ClientCertificate certificate) throws Exception {
        return CapacityProviderGrpc.newBlockingStub(channel(provider, Optional.of(certificate)))
                .withDeadlineAfter(10, TimeUnit.SECONDS);
    }

    private ManagedChannel channel(TestingProvider provider, Optional<ClientCertificate> certificate) throws Exception {
        SslContextBuilder ssl =
                GrpcSslContexts.forClient().trustManager(certs.caCert().toFile());
        certificate.ifPresent(
                c -> ssl.keyManager(c.certificate().toFile(), c.key().toFile()));
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", provider.grpcPort())
                .sslContext(ssl.build())
                .build();
        channels.add(channel);
        return channel;
    }

    private static CreateRequest create(String machine, String shard, long epoch, long sequence) {
        return CreateRequest.newBuilder()
                .setMachineId(machine)
                .setShardId(shard)
                .setShardEpoch(epoch)
                .setSequenceNumber(sequence)
                .build();
    }

    private static String firstMachine(CapacityProviderBlockingStub stub) {
        return stub.list(ListFilter.getDefaultInstance()).getMachines(0).getId();
    }

    private static MachineState state(CapacityProviderBlockingStub stub, String machine) {
        return stub.get(MachineRef.newBuilder().setId(machine).build()).getState();
    }

    private static Status.Code code(Runnable call) {
        try {
            call.run();
            return Status.Code.OK;
        } catch (StatusRuntimeException e) {
            return e.getStatus().getCode();
        }
    }

    private static String refusal(Runnable call) {
        try {
            call.run();
        } catch (StatusRuntimeException e) {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
            return e.getStatus().getDescription();
        }
        throw new AssertionError("the call was not refused");
    }

    /** Every lifecycle call on {@code machine} with the token {@code (shard, 9, 9)}: all refused. */
    private static void everyMutationIsRefused(CapacityProviderBlockingStub stub, String machine, String shard) {
        List<Consumer<CapacityProviderBlockingStub>> calls = List.of(
                s -> s.create(create(machine, shard, 9, 9)),
                s -> s.configure(ConfigureRequest.newBuilder()
                        .setMachineId(machine)
                        .setClusterId("prod-1")
                        .setBootstrapBlob(ByteString.copyFromUtf8("join-secret-never-logged"))
                        .setShardId(shard)
                        .setShardEpoch(9)
                        .setSequenceNumber(9)
                        .build()),
                s -> s.drain(DrainRequest.newBuilder()
                        .setMachineId(machine)
                        .setShardId(shard)
                        .setShardEpoch(9)
                        .setSequenceNumber(9)
                        .build()),
                s -> s.delete(DeleteRequest.newBuilder()
                        .setMachineId(machine)
                        .setShardId(shard)
                        .setShardEpoch(9)
                        .setSequenceNumber(9)
                        .build()));
        for (Consumer<CapacityProviderBlockingStub> call : calls) {
            assertThat(code(() -> call.accept(stub))).isEqualTo(Status.Code.PERMISSION_DENIED);
        }
    }

    private static double refusals(TestingProvider provider, String reason) throws Exception {
        return provider.client().metric(series(reason)).orElse(0);
    }

    private static String series(String reason) {
        return "bigfleet_proxmox_identity_refusals_total{reason=\"" + reason + "\"}";
    }

    private static List<String> refusalLines(TestingProvider provider) {
        return provider.log().stream().filter(l -> l.contains(REFUSAL_LINE)).toList();
    }

    @Test
    void aShardMutatesWithItsOwnTokensAndItsMarkMoves() throws Exception {
        try (TestingProvider provider = mutualTls()) {
            CapacityProviderBlockingStub a = as(provider, shardA);
            String machine = firstMachine(a);
            assertThat(a.create(create(machine, "shard-a", 1, 5)).getMachine().getState())
                    .isEqualTo(MachineState.MACHINE_STATE_CREATING);
            assertThat(code(() -> a.create(create(machine, "shard-a", 1, 5))))
                    .as("the same token again is fenced: the mark moved")
                    .isEqualTo(Status.Code.FAILED_PRECONDITION);
            for (String reason : List.of(
                    "shard_mismatch",
                    "unnamed_client",
                    "read_only_client",
                    "ambiguous_identity",
                    "unrecognized_identity")) {
                assertThat(provider.client().metric(series(reason)))
                        .as("exported from the start")
                        .hasValue(0);
            }
            assertThat(refusalLines(provider)).isEmpty();
        }
    }

    @Test
    void anotherShardsTokenIsRefusedAndMovesNoMarkAndChangesNothing() throws Exception {
        try (TestingProvider provider = mutualTls()) {
            CapacityProviderBlockingStub a = as(provider, shardA);
            CapacityProviderBlockingStub b = as(provider, shardB);
            String machine = firstMachine(a);
            MachineList before = a.list(ListFilter.getDefaultInstance());

            assertThat(refusal(() -> b.create(create(machine, "shard-a", 9, 9))))
                    .isEqualTo("the client certificate is shard \"shard-b\" (bigfleet://shard/shard-b) and may only"
                            + " send its own fence tokens; this one's shard_id is \"shard-a\"");
            everyMutationIsRefused(b, machine, "shard-a");

            MachineList delta = a.list(ListFilter.newBuilder()
                    .setSinceRevision(before.getRevision())
                    .build());
            assertThat(delta.getMachinesList()).as("no record changed").isEmpty();
            assertThat(state(a, machine)).isEqualTo(MachineState.MACHINE_STATE_SPECULATIVE);
            // (1,1) is older than the (9,9) shard-b sent: had that moved shard-a's mark, this were fenced
            assertThat(a.create(create(machine, "shard-a", 1, 1)).getMachine().getState())
                    .isEqualTo(MachineState.MACHINE_STATE_CREATING);

            assertThat(refusals(provider, "shard_mismatch")).isEqualTo(5);
            List<String> lines = refusalLines(provider);
            assertThat(lines)
                    .hasSize(5)
                    .allSatisfy(line -> assertThat(line)
                            .contains("WARN")
                            .contains("machine=" + machine)
                            .contains("token_shard=shard-a")
                            .contains("reason=shard_mismatch")
                            .contains("cert_identity=bigfleet://shard/shard-b")
                            .contains("cert_subject=\"CN=shard-b\"")
                            .containsPattern("cert_serial=[0-9A-F]+ ")
                            .containsPattern("cert_sha256=([0-9A-F]{2}:){31}[0-9A-F]{2}"));
            assertThat(lines)
                    .extracting(line -> line.replaceAll(".*method=(\\w+).*", "$1"))
                    .containsExactly("Create", "Create", "Configure", "Drain", "Delete");
            assertThat(provider.log()).noneMatch(line -> line.contains("join-secret-never-logged"));
        }
    }

    @Test
    void aShardMayNotSendTheAllZeroToken() throws Exception {
        try (TestingProvider provider = mutualTls("--tls-unnamed-clients", "mutate")) {
            CapacityProviderBlockingStub a = as(provider, shardA);
            String machine = firstMachine(a);
            assertThat(refusal(() -> a.create(create(machine, "", 0, 0)))).endsWith("this one's shard_id is empty");
            assertThat(state(a, machine)).isEqualTo(MachineState.MACHINE_STATE_SPECULATIVE);
            assertThat(refusals(provider, "shard_mismatch")).isEqualTo(1);
            assertThat(refusalLines(provider)).singleElement().asString().contains("token_shard=\"\"");
        }
    }

    @Test
    void aCertificateNamingNoShardReadsButMutatesNothingByDefault() throws Exception {
        try (TestingProvider provider = mutualTls()) {
            for (ClientCertificate unnamed : List.of(noShard, admin)) {
                CapacityProviderBlockingStub stub = as(provider, unnamed);
                String machine = firstMachine(stub);
                assertThat(state(stub, machine)).isEqualTo(MachineState.MACHINE_STATE_SPECULATIVE);
                assertThat(HealthGrpc.newBlockingStub(channel(provider, Optional.of(unnamed)))
                                .check(HealthCheckRequest.getDefaultInstance())
                                .getStatus())
                        .isEqualTo(ServingStatus.SERVING);
                assertThat(refusal(() -> stub.create(create(machine, "", 0, 0))))
                        .contains("names no shard (no bigfleet://shard/ URI)");
                everyMutationIsRefused(stub, machine, "shard-a");
                assertThat(state(stub, machine)).isEqualTo(MachineState.MACHINE_STATE_SPECULATIVE);
            }
            assertThat(refusals(provider, "unnamed_client")).isEqualTo(10);
            assertThat(refusalLines(provider))
                    .hasSize(10)
                    .anySatisfy(line -> assertThat(line).contains("cert_identity=none", "cert_subject=\"CN=client\""))
                    .anySatisfy(line -> assertThat(line).contains("cert_identity=bigfleet://admin"));
        }
    }

    @Test
    void withTheFlagACertificateNamingNoShardMutatesButNoOtherIdentityWidens() throws Exception {
        try (TestingProvider provider = mutualTls("--tls-unnamed-clients=mutate")) {
            CapacityProviderBlockingStub tool = as(provider, noShard);
            List<String> machines = tool.list(ListFilter.getDefaultInstance()).getMachinesList().stream()
                    .map(m -> m.getId())
                    .toList();
            assertThat(tool.create(create(machines.get(0), "", 0, 0))
                            .getMachine()
                            .getState())
                    .isEqualTo(MachineState.MACHINE_STATE_CREATING);
            assertThat(as(provider, admin)
                            .create(create(machines.get(1), "shard-a", 1, 1))
                            .getMachine()
                            .getState())
                    .isEqualTo(MachineState.MACHINE_STATE_CREATING);

            String machine = machines.get(2);
            everyMutationIsRefused(as(provider, shardB), machine, "shard-a");
            CapacityProviderBlockingStub reader = as(provider, readOnly);
            assertThat(refusal(() -> reader.create(create(machine, "shard-a", 1, 1))))
                    .isEqualTo("the client certificate is bigfleet://readonly: it may only read");
            for (ClientCertificate never : List.of(readOnly, twoShards, emptyShard)) {
                CapacityProviderBlockingStub stub = as(provider, never);
                assertThat(state(stub, machine)).isEqualTo(MachineState.MACHINE_STATE_SPECULATIVE);
                everyMutationIsRefused(stub, machine, "shard-a");
            }
            assertThat(state(tool, machine)).isEqualTo(MachineState.MACHINE_STATE_SPECULATIVE);
            assertThat(refusals(provider, "shard_mismatch")).isEqualTo(4);
            assertThat(refusals(provider, "read_only_client")).isEqualTo(5);
            assertThat(refusals(provider, "ambiguous_identity")).isEqualTo(4);
            assertThat(refusals(provider, "unrecognized_identity")).isEqualTo(4);
            assertThat(refusals(provider, "unnamed_client")).isZero();
            assertThat(refusalLines(provider))
                    .anySatisfy(line -> assertThat(line)
                            .contains("reason=ambiguous_identity")
                            .contains("cert_identity=bigfleet://shard/shard-a,bigfleet://shard/shard-b"))
                    .anySatisfy(line -> assertThat(line)
                            .contains("reason=unrecognized_identity")
                            .contains("cert_identity=bigfleet://shard/ "));
            assertThat(provider.log())
                    .anyMatch(line -> line.contains("serving CapacityProvider")
                            && line.contains("security=mTLS unnamed_clients=mutate"));
        }
    }

    @Test
    void aCertificateOfAnotherCaIsRefusedAtTheHandshakeWhateverShardItNames() throws Exception {
        try (TestingProvider provider = mutualTls()) {
            CapacityProviderBlockingStub a = as(provider, shardA);
            String machine = firstMachine(a);
            CapacityProviderBlockingStub foreign = as(provider, foreignShardA);
            assertThatThrownBy(() -> foreign.list(ListFilter.getDefaultInstance()))
                    .isInstanceOf(StatusRuntimeException.class)
                    .satisfies(e -> assertThat(
                                    ((StatusRuntimeException) e).getStatus().getCode())
                            .isEqualTo(Status.Code.UNAVAILABLE));
            assertThat(code(() -> foreign.create(create(machine, "shard-a", 9, 9))))
                    .isEqualTo(Status.Code.UNAVAILABLE);
            assertThat(a.create(create(machine, "shard-a", 1, 1)).getMachine().getState())
                    .isEqualTo(MachineState.MACHINE_STATE_CREATING);
            assertThat(refusalLines(provider)).isEmpty();
        }
    }

    @Test
    void withoutAClientCaThereIsNoIdentityToCheck() throws Exception {
        try (TestingProvider provider = TestingProvider.builder()
                .seedCount(4)
                .fakeLatency(Duration.ZERO)
                .tls(certs)
                .build()) {
            CapacityProviderBlockingStub anyone = CapacityProviderGrpc.newBlockingStub(
                            channel(provider, Optional.empty()))
                    .withDeadlineAfter(10, TimeUnit.SECONDS);
            String machine = firstMachine(anyone);
            assertThat(anyone.create(create(machine, "shard-a", 1, 1))
                            .getMachine()
                            .getState())
                    .isEqualTo(MachineState.MACHINE_STATE_CREATING);
            assertThat(provider.metrics()).doesNotContain("identity_refusals");
            assertThat(provider.log())
                    .anyMatch(line -> line.contains("serving CapacityProvider") && line.contains("security=TLS"))
                    .noneMatch(line -> line.contains("unnamed_clients"));
        }
    }
}
