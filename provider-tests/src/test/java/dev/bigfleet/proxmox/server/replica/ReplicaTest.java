package dev.bigfleet.proxmox.server.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import dev.bigfleet.proxmox.testing.TestingPostgres;
import dev.bigfleet.proxmox.testing.TestingProvider;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two replicas of the real {@code main} wiring in this JVM on one PostgreSQL database: the standby
 * is alive but not ready and refuses every call naming the leader, its view follows the leader's
 * changes, and when the leader stops it takes over with fence marks and operation ids intact.
 */
class ReplicaTest {
    private static TestingPostgres postgres;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void sharedPostgres() throws Exception {
        postgres = TestingPostgres.shared();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    private TestingProvider replica(String db) throws Exception {
        TestingProvider p = TestingProvider.builder()
                .fakeLatency(Duration.ZERO)
                .seedCount(8)
                .postgresState(postgres, db)
                .build();
        opened.add(p);
        return p;
    }

    private static CapacityProviderBlockingStub stub(TestingProvider p) {
        return p.grpc();
    }

    private static HttpResponse<String> get(TestingProvider p, String path) throws Exception {
        return p.get(path);
    }

    @Test
    void theStandbyRefusesCallsNamingTheLeaderFollowsItAndTakesOverWithMarksAndOperationIds() throws Exception {
        String db = postgres.createDatabase();
        TestingProvider leader = replica(db);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> get(leader, "/readyz").statusCode() == 200);
        TestingProvider standby = replica(db);
        CapacityProviderBlockingStub toLeader = stub(leader);
        CapacityProviderBlockingStub toStandby = stub(standby);

        String id =
                toLeader.list(ListFilter.getDefaultInstance()).getMachines(0).getId();
        TransitionAck created = toLeader.create(CreateRequest.newBuilder()
                .setMachineId(id)
                .setShardId("shard")
                .setShardEpoch(1)
                .setSequenceNumber(5)
                .build());
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        toLeader.get(MachineRef.newBuilder().setId(id).build()).getState()
                                == MachineState.MACHINE_STATE_IDLE);

        assertThat(get(standby, "/healthz").statusCode()).isEqualTo(200);
        HttpResponse<String> notReady = get(standby, "/readyz");
        assertThat(notReady.statusCode()).isEqualTo(503);
        assertThat(notReady.body()).contains("standby").contains(":" + leader.grpcPort());
        assertThatThrownBy(() -> toStandby.get(MachineRef.newBuilder().setId(id).build()))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
                    assertThat(e.getStatus().getDescription())
                            .contains("standby")
                            .contains("the leader is ")
                            .contains(":" + leader.grpcPort());
                });
        assertThatThrownBy(() -> toStandby.create(
                        CreateRequest.newBuilder().setMachineId(id).build()))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
        // the standby's view follows: its admin summary and metrics show the leader's changes and roles
        await().atMost(Duration.ofSeconds(10))
                .until(() -> get(standby, "/api/v1/summary").body().contains("\"IDLE\":1"));
        assertThat(get(standby, "/api/v1/summary").body())
                .contains("\"role\":\"standby\"")
                .contains("\"leader\":\"")
                .contains(":" + leader.grpcPort() + "\"");
        assertThat(get(leader, "/api/v1/summary").body()).contains("\"role\":\"leader\"");
        assertThat(get(standby, "/metrics").body())
                .contains("bigfleet_proxmox_leader 0.0")
                .contains("bigfleet_proxmox_leader_epoch 1.0");
        assertThat(get(leader, "/metrics").body()).contains("bigfleet_proxmox_leader 1.0");

        long beforeStop = System.nanoTime();
        leader.close(); // a graceful stop lets the lease go: no need to wait for it to expire
        await().atMost(Duration.ofSeconds(20))
                .until(() -> get(standby, "/readyz").statusCode() == 200);
        assertThat(Duration.ofNanos(System.nanoTime() - beforeStop)).isLessThan(Duration.ofSeconds(15));
        assertThat(get(standby, "/metrics").body()).contains("bigfleet_proxmox_leader_epoch 2.0");

        TransitionAck retried =
                toStandby.create(CreateRequest.newBuilder().setMachineId(id).build());
        assertThat(retried.getOperationId()).isEqualTo(created.getOperationId());
        assertThatThrownBy(() -> toStandby.configure(ConfigureRequest.newBuilder()
                        .setMachineId(id)
                        .setClusterId("c")
                        .setShardId("shard")
                        .setShardEpoch(1)
                        .setSequenceNumber(5)
                        .build()))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION));
        TransitionAck next = toStandby.configure(ConfigureRequest.newBuilder()
                .setMachineId(id)
                .setClusterId("c")
                .setShardId("shard")
                .setShardEpoch(1)
                .setSequenceNumber(6)
                .build());
        assertThat(next.getOperationId()).isNotEqualTo(created.getOperationId());
        assertThat(toStandby.list(ListFilter.getDefaultInstance()).getMachinesCount())
                .isEqualTo(8);
    }
}
