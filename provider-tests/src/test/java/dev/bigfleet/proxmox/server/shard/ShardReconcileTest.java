package dev.bigfleet.proxmox.server.shard;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.api.SlotMachineId;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineList;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import dev.bigfleet.proxmox.testing.TestingProvider;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The provider driven the way a running BigFleet shard drives it: its reconcile takes every List in
 * (a full List, or a delta since its last cursor) through the shard's state machine and record
 * invariants ({@link ShardInventory}), and its actions move its own records before and after each
 * call. Creates and Configures fail; once the retention ends, every failed slot must be offered again
 * as a machine the shard accepts, with not one record refused and without the shard restarting.
 */
@Tag("recovery")
class ShardReconcileTest {
    private static final Duration RETENTION = Duration.ofSeconds(3);
    /** The cleanup, and the provider's and the shard's next passes, after the retention. */
    private static final Duration RECOVERY = RETENTION.plusSeconds(6);

    private static final ByteString BLOB = ByteString.copyFromUtf8("#!/bin/sh\necho join\n");
    private static final String SHARD = "shard-a";

    /** How the shard reconciles: a full List each cycle, or a delta since its cursor. */
    enum Reconcile {
        FULL,
        DELTA
    }

    /** One shard's calls and its inventory. */
    private static final class Shard {
        private final CapacityProviderBlockingStub provider;
        private final Reconcile mode;
        private final ShardInventory inventory = new ShardInventory();
        private final Map<String, Long> sequences = new HashMap<>();
        private ByteString cursor = ByteString.EMPTY;

        Shard(CapacityProviderBlockingStub provider, Reconcile mode) {
            this.provider = provider;
            this.mode = mode;
        }

        private CapacityProviderBlockingStub stub() {
            return provider.withWaitForReady().withDeadlineAfter(30, TimeUnit.SECONDS);
        }

        void reconcile() {
            if (mode == Reconcile.FULL) {
                inventory.reconcileFull(
                        stub().list(ListFilter.getDefaultInstance()).getMachinesList());
                return;
            }
            MachineList delta =
                    stub().list(ListFilter.newBuilder().setSinceRevision(cursor).build());
            inventory.reconcileDelta(delta.getMachinesList());
            cursor = delta.getRevision();
        }

        private long next(String id) {
            return sequences.merge(id, 1L, Long::sum);
        }

        /** Speculative → Creating in the shard's record, the Create, then the answer's record. */
        void create(String id) {
            inventory.begin(id);
            try {
                inventory.applyLocally(id, MachineState.MACHINE_STATE_CREATING);
                TransitionAck ack = stub().create(CreateRequest.newBuilder()
                        .setMachineId(id)
                        .setShardId(SHARD)
                        .setShardEpoch(1)
                        .setSequenceNumber(next(id))
                        .build());
                inventory.acknowledged(ack.getMachine());
            } finally {
                inventory.end(id);
            }
        }

        /** Idle → Configuring in the shard's record, the Configure, then the answer's record. */
        void configure(String id, String cluster) {
            inventory.begin(id);
            try {
                inventory.applyLocally(id, MachineState.MACHINE_STATE_CONFIGURING);
                TransitionAck ack = stub().configure(ConfigureRequest.newBuilder()
                        .setMachineId(id)
                        .setClusterId(cluster)
                        .setBootstrapBlob(BLOB)
                        .setShardId(SHARD)
                        .setShardEpoch(1)
                        .setSequenceNumber(next(id))
                        .build());
                inventory.acknowledged(ack.getMachine());
            } finally {
                inventory.end(id);
            }
        }

        MachineState state(String id) {
            return inventory.get(id).map(Machine::getState).orElse(MachineState.MACHINE_STATE_UNSPECIFIED);
        }
    }

    @ParameterizedTest
    @EnumSource(Reconcile.class)
    void everyFailedSlotComesBackAsANewMachineTheShardAcceptsWithoutARestart(Reconcile mode) throws Exception {
        try (TestingProvider provider = TestingProvider.builder()
                .fakeFaults()
                .fakeLatency(Duration.ofMillis(20))
                .seedCount(6)
                .flags("--failed-retention", "3s", "--reconcile-interval", "1s")
                .build()) {
            Shard shard = new Shard(provider.grpc(), mode);
            shard.reconcile();
            List<String> ordinary = new ArrayList<>();
            List<String> createFails = new ArrayList<>();
            for (Machine m : shard.inventory.all()) {
                (m.getId().contains("-faults/") ? createFails : ordinary).add(m.getId());
            }
            ordinary.sort(null);
            createFails.sort(null);
            // two Creates that fail, two Configures that fail, two machines that serve throughout
            List<String> failCreate = createFails.subList(0, 2);
            List<String> failConfigure = ordinary.subList(0, 2);
            List<String> serve = ordinary.subList(2, 4);
            Map<String, String> clusterOf = new HashMap<>();
            failConfigure.forEach(id -> clusterOf.put(id, "fault-error"));
            serve.forEach(id -> clusterOf.put(id, "prod-1"));

            List<String> all = new ArrayList<>(failCreate);
            all.addAll(failConfigure);
            all.addAll(serve);
            all.forEach(shard::create);

            Map<String, Instant> failedAt = new HashMap<>();
            Map<String, Instant> backAt = new HashMap<>();
            Instant deadline = Instant.now().plus(RECOVERY).plus(RECOVERY);
            List<String> failing = new ArrayList<>(failCreate);
            failing.addAll(failConfigure);
            while (Instant.now().isBefore(deadline) && backAt.size() < failing.size()) {
                shard.reconcile();
                for (String id : clusterOf.keySet()) {
                    if (shard.state(id) == MachineState.MACHINE_STATE_IDLE) {
                        shard.configure(id, clusterOf.get(id));
                    }
                }
                for (String id : failing) {
                    if (shard.state(id) == MachineState.MACHINE_STATE_FAILED) {
                        failedAt.putIfAbsent(id, Instant.now());
                    }
                    String successor = successorOf(id);
                    if (shard.state(successor) == MachineState.MACHINE_STATE_SPECULATIVE) {
                        backAt.putIfAbsent(id, Instant.now());
                    }
                }
                Thread.sleep(200);
            }

            assertThat(shard.inventory.refusals())
                    .as("records the shard refused")
                    .isEmpty();
            assertThat(failedAt.keySet()).containsExactlyInAnyOrderElementsOf(failing);
            assertThat(backAt.keySet())
                    .as("failed slots offered again as new machines the shard holds")
                    .containsExactlyInAnyOrderElementsOf(failing);
            for (String id : failing) {
                assertThat(Duration.between(failedAt.get(id), backAt.get(id)))
                        .as("%s back within its retention and two reconcile passes", id)
                        .isLessThan(RECOVERY);
                if (mode == Reconcile.FULL) {
                    assertThat(shard.inventory.get(id))
                            .as("a full List drops the FAILED record")
                            .isEmpty();
                } else {
                    assertThat(shard.state(id))
                            .as("a delta cannot drop a record: the shard keeps it FAILED, never allocatable")
                            .isEqualTo(MachineState.MACHINE_STATE_FAILED);
                }
            }
            for (String id : serve) {
                assertThat(shard.state(id)).isEqualTo(MachineState.MACHINE_STATE_CONFIGURED);
            }

            // the capacity is usable: a slot whose Configure failed serves under its new id
            String again = successorOf(failConfigure.get(0));
            shard.create(again);
            Instant until = Instant.now().plus(RECOVERY);
            while (Instant.now().isBefore(until) && shard.state(again) != MachineState.MACHINE_STATE_CONFIGURED) {
                shard.reconcile();
                if (shard.state(again) == MachineState.MACHINE_STATE_IDLE) {
                    shard.configure(again, "prod-1");
                }
                Thread.sleep(200);
            }
            assertThat(shard.state(again)).isEqualTo(MachineState.MACHINE_STATE_CONFIGURED);
            assertThat(shard.inventory.refusals())
                    .as("records the shard refused")
                    .isEmpty();
        } catch (StatusRuntimeException e) {
            throw new AssertionError("a call the shard made was refused: " + e.getStatus(), e);
        }
    }

    private static String successorOf(String id) {
        return SlotMachineId.parse(id).orElseThrow().next().machineId();
    }
}
