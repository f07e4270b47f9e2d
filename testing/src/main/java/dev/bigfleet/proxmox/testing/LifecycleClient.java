package dev.bigfleet.proxmox.testing;

import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.api.SlotMachineId;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DeleteRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.ManagedChannel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A BigFleet-like client of one provider over its real ports: the lifecycle RPCs over gRPC (each
 * waiting for the connection, with a 30 s deadline), the states it waits for, and single series
 * read from {@code /metrics} over HTTP. {@link TestingProvider#client()} hands one out.
 */
public final class LifecycleClient {
    /** How long {@link #awaitState(String, MachineState)} waits. */
    private static final Duration STATE_WAIT = Duration.ofSeconds(20);

    private final CapacityProviderBlockingStub grpc;
    private final String httpBase;
    private final HttpClient http = HttpClient.newHttpClient();

    LifecycleClient(ManagedChannel channel, String httpBase) {
        this.grpc = CapacityProviderGrpc.newBlockingStub(channel);
        this.httpBase = httpBase;
    }

    private CapacityProviderBlockingStub stub() {
        return grpc.withWaitForReady().withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    public TransitionAck create(String id) {
        return stub().create(CreateRequest.newBuilder().setMachineId(id).build());
    }

    public TransitionAck configure(String id, String cluster, byte[] blob) {
        return stub().configure(ConfigureRequest.newBuilder()
                .setMachineId(id)
                .setClusterId(cluster)
                .setBootstrapBlob(ByteString.copyFrom(blob))
                .build());
    }

    /** A Configure that also hands over the shard's metadata. */
    public TransitionAck configure(String id, String cluster, byte[] blob, Map<String, String> shardMetadata) {
        return stub().configure(ConfigureRequest.newBuilder()
                .setMachineId(id)
                .setClusterId(cluster)
                .setBootstrapBlob(ByteString.copyFrom(blob))
                .putAllShardMetadata(shardMetadata)
                .build());
    }

    public TransitionAck drain(String id) {
        return stub().drain(DrainRequest.newBuilder().setMachineId(id).build());
    }

    public TransitionAck drain(String id, long graceSeconds) {
        return stub().drain(DrainRequest.newBuilder()
                .setMachineId(id)
                .setGracePeriodSeconds(graceSeconds)
                .build());
    }

    public TransitionAck delete(String id) {
        return stub().delete(DeleteRequest.newBuilder().setMachineId(id).build());
    }

    public Machine get(String id) {
        return stub().get(MachineRef.newBuilder().setId(id).build());
    }

    public MachineState state(String id) {
        return get(id).getState();
    }

    public List<Machine> list() {
        return stub().list(ListFilter.getDefaultInstance()).getMachinesList();
    }

    /** Machine ids by state. */
    public Map<MachineState, List<String>> byState() {
        return list().stream()
                .collect(Collectors.groupingBy(
                        Machine::getState, Collectors.mapping(Machine::getId, Collectors.toList())));
    }

    /** Waits until every machine in {@code ids} is in {@code state}; fails early if one goes FAILED. */
    public void awaitAll(Collection<String> ids, MachineState state, Duration atMost) {
        awaitAll(ids, state, atMost, failed -> false);
    }

    /**
     * Waits until every machine in {@code ids} is in {@code state} or FAILED in a way {@code
     * allowedFailure} accepts; fails early if one goes FAILED in any other way.
     */
    public void awaitAll(
            Collection<String> ids, MachineState state, Duration atMost, Predicate<Machine> allowedFailure) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(250)).until(() -> {
            List<Machine> now =
                    list().stream().filter(m -> ids.contains(m.getId())).toList();
            for (Machine m : now) {
                if (m.getState() == MachineState.MACHINE_STATE_FAILED
                        && state != MachineState.MACHINE_STATE_FAILED
                        && !allowedFailure.test(m)) {
                    throw new AssertionError("machine " + m.getId() + " FAILED: " + m.getLastError());
                }
            }
            return now.size() == ids.size()
                    && now.stream()
                            .allMatch(m -> m.getState() == state
                                    || (m.getState() == MachineState.MACHINE_STATE_FAILED && allowedFailure.test(m)));
        });
    }

    /** Waits up to 20 s until the machine is in {@code state}, whatever it passes through. */
    public Machine awaitState(String id, MachineState state) {
        await().atMost(STATE_WAIT).pollInterval(Duration.ofMillis(20)).until(() -> state(id) == state);
        return get(id);
    }

    /** Create, Configure, Drain and Delete one machine, waiting for each to land. */
    public void fullLifecycle(String id, byte[] blob) {
        create(id);
        awaitState(id, MachineState.MACHINE_STATE_IDLE);
        configure(id, "prod-1", blob);
        awaitState(id, MachineState.MACHINE_STATE_CONFIGURED);
        drain(id);
        awaitState(id, MachineState.MACHINE_STATE_IDLE);
        delete(id);
        awaitState(id, MachineState.MACHINE_STATE_SPECULATIVE);
    }

    /** Waits until the machine is in {@code state}, whatever it passes through. */
    public Machine awaitState(String id, MachineState state, Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(100)).until(() -> get(id).getState() == state);
        return get(id);
    }

    /**
     * Waits until the FAILED machine {@code failedId} has been cleaned up: it left the inventory and
     * its slot's next machine ({@link SlotMachineId#next()}) is SPECULATIVE in its place. Returns that
     * machine. Throughout, {@code failedId} is FAILED or gone: a FAILED machine never changes state in
     * place.
     */
    public Machine awaitReplaced(String failedId, Duration atMost) {
        String successor = SlotMachineId.parse(failedId)
                .orElseThrow(() -> new IllegalArgumentException("not a slot's machine: " + failedId))
                .next()
                .machineId();
        await().atMost(atMost).pollInterval(Duration.ofMillis(100)).until(() -> {
            List<Machine> now = list();
            for (Machine m : now) {
                if (m.getId().equals(failedId) && m.getState() != MachineState.MACHINE_STATE_FAILED) {
                    throw new AssertionError("FAILED machine " + failedId + " changed in place to " + m.getState());
                }
            }
            return now.stream().noneMatch(m -> m.getId().equals(failedId))
                    && now.stream()
                            .anyMatch(m -> m.getId().equals(successor)
                                    && m.getState() == MachineState.MACHINE_STATE_SPECULATIVE);
        });
        return get(successor);
    }

    /** The text of {@code /metrics}. */
    public String metrics() throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(httpBase + "/metrics"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return r.body();
    }

    /** The value of one series, e.g. {@code bigfleet_proxmox_api_up}; empty when it is not exported. */
    public OptionalDouble metric(String series) throws Exception {
        for (String line : metrics().split("\n", -1)) {
            if (line.startsWith(series + " ")) {
                return OptionalDouble.of(Double.parseDouble(line.substring(series.length() + 1)));
            }
        }
        return OptionalDouble.empty();
    }

    /** A JSON document of the admin API, e.g. {@code /api/v1/summary}. */
    public String adminApi(String path) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(URI.create(httpBase + path))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
                .body();
    }
}
