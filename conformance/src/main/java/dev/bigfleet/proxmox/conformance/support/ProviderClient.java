package dev.bigfleet.proxmox.conformance.support;

import dev.bigfleet.proxmox.conformance.target.Profile;
import dev.bigfleet.proxmox.conformance.target.Targets;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DeleteRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineList;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.Channel;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The suite's only door to a provider: a plaintext gRPC channel per endpoint, opened once and
 * shared by every test (the shard keeps one long-lived connection too). Every call carries a
 * deadline so a hung provider fails a test instead of hanging the run.
 *
 * <p>The {@code try*} methods return an {@link Outcome} instead of throwing, because most
 * behaviours are about which status code comes back.
 */
public final class ProviderClient {
    /** Per-call deadline: far above any sane ack or List latency, far below a stuck run. */
    public static final long CALL_DEADLINE_SECONDS = 30;
    /** Large enough for a full List of a scale-profile inventory. */
    private static final int MAX_INBOUND_BYTES = 512 * 1024 * 1024;

    private static final Map<String, ProviderClient> BY_TARGET = new ConcurrentHashMap<>();

    private final String target;
    private final Channel channel;

    private ProviderClient(String target, Channel channel) {
        this.target = target;
        this.channel = channel;
    }

    /** The shared client of a profile's endpoint; callers have already assumed it is present. */
    public static ProviderClient of(Profile profile) {
        String target =
                Targets.of(profile).orElseThrow(() -> new IllegalStateException("no endpoint for profile " + profile));
        return forTarget(target);
    }

    public static ProviderClient forTarget(String target) {
        return BY_TARGET.computeIfAbsent(target, t -> new ProviderClient(t, openChannel(t)));
    }

    /**
     * A brand-new connection, not shared: for behaviours about distinct connections (B406). The
     * caller owns it and must shut it down.
     */
    public static ManagedChannel openChannel(String target) {
        return Grpc.newChannelBuilder(target, InsecureChannelCredentials.create())
                .maxInboundMessageSize(MAX_INBOUND_BYTES)
                .build();
    }

    /** A client over a caller-owned channel (not cached). */
    public static ProviderClient over(String target, Channel channel) {
        return new ProviderClient(target, channel);
    }

    /** Closes every cached channel; used by {@code ConformanceMain} before exiting. */
    public static void closeAll() {
        for (ProviderClient client : BY_TARGET.values()) {
            if (client.channel instanceof ManagedChannel managed) {
                managed.shutdownNow();
                try {
                    managed.awaitTermination(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        BY_TARGET.clear();
    }

    public String target() {
        return target;
    }

    /** A fresh blocking stub with its own deadline (deadlines are absolute, so one per call). */
    public CapacityProviderBlockingStub stub() {
        return CapacityProviderGrpc.newBlockingStub(channel).withDeadlineAfter(CALL_DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    // ---- throwing calls (StatusRuntimeException on any non-OK code) ----

    public TransitionAck create(CreateRequest request) {
        return stub().create(request);
    }

    public TransitionAck configure(ConfigureRequest request) {
        return stub().configure(request);
    }

    public TransitionAck drain(DrainRequest request) {
        return stub().drain(request);
    }

    public TransitionAck delete(DeleteRequest request) {
        return stub().delete(request);
    }

    public Machine get(String id) {
        return stub().get(MachineRef.newBuilder().setId(id).build());
    }

    public MachineList list(ListFilter filter) {
        return stub().list(filter);
    }

    /** The whole inventory, no filter, no cap, no cursor. */
    public MachineList listAll() {
        return list(ListFilter.getDefaultInstance());
    }

    public MachineList listStates(MachineState... states) {
        return list(ListFilter.newBuilder().addAllStates(Arrays.asList(states)).build());
    }

    /** The machine's entry in a List filtered by the given states, if it is there. */
    public Optional<Machine> findInList(String id, MachineState... states) {
        return listStates(states).getMachinesList().stream()
                .filter(m -> m.getId().equals(id))
                .findFirst();
    }

    /**
     * Waits (up to {@code seconds}) until the endpoint answers a one-machine List: a provider that
     * is still starting is waited for instead of failing every behaviour with UNAVAILABLE.
     */
    public Outcome<MachineList> awaitReachable(long seconds) {
        return Outcome.of(() -> CapacityProviderGrpc.newBlockingStub(channel)
                .withWaitForReady()
                .withDeadlineAfter(seconds, TimeUnit.SECONDS)
                .list(ListFilter.newBuilder().setMaxResults(1).build()));
    }

    // ---- outcome-returning calls ----

    public Outcome<TransitionAck> tryCreate(CreateRequest request) {
        return Outcome.of(() -> create(request));
    }

    public Outcome<TransitionAck> tryConfigure(ConfigureRequest request) {
        return Outcome.of(() -> configure(request));
    }

    public Outcome<TransitionAck> tryDrain(DrainRequest request) {
        return Outcome.of(() -> drain(request));
    }

    public Outcome<TransitionAck> tryDelete(DeleteRequest request) {
        return Outcome.of(() -> delete(request));
    }

    public Outcome<Machine> tryGet(String id) {
        return Outcome.of(() -> get(id));
    }

    public Outcome<MachineList> tryList(ListFilter filter) {
        return Outcome.of(() -> list(filter));
    }

    @Override
    public String toString() {
        return "provider at " + target;
    }
}
