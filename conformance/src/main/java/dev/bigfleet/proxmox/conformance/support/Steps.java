package dev.bigfleet.proxmox.conformance.support;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import java.util.Map;

/**
 * Drives a machine along a legal edge with the all-zero token and waits for the target state.
 * These are set-up steps for behaviours about something else, so each one insists on success;
 * behaviours about the edges themselves call the RPCs directly.
 */
public final class Steps {
    private Steps() {}

    /** A completed step: the ack of the accepted transition and the settled snapshot. */
    public record Done(TransitionAck ack, Machine settled) {
        public String operationId() {
            return ack.getOperationId();
        }
    }

    public static Done create(ProviderClient client, String id) {
        TransitionAck ack = Expect.ok(client.tryCreate(Requests.create(id)), "Create " + id);
        return new Done(ack, Await.state(client, id, States.IDLE));
    }

    public static Done configure(ProviderClient client, String id, String cluster, Map<String, String> metadata) {
        TransitionAck ack =
                Expect.ok(client.tryConfigure(Requests.configure(id, cluster, metadata)), "Configure " + id);
        return new Done(ack, Await.state(client, id, States.CONFIGURED));
    }

    public static Done drain(ProviderClient client, String id) {
        TransitionAck ack = Expect.ok(client.tryDrain(Requests.drain(id)), "Drain " + id);
        return new Done(ack, Await.state(client, id, States.IDLE));
    }

    public static Done delete(ProviderClient client, String id) {
        TransitionAck ack = Expect.ok(client.tryDelete(Requests.delete(id)), "Delete " + id);
        return new Done(ack, Await.state(client, id, States.SPECULATIVE));
    }

    /** A fresh machine driven to IDLE. */
    public static String idleMachine(ProviderClient client) {
        String id = MachinePool.claimSpeculative(client);
        create(client, id);
        return id;
    }

    /** A fresh machine driven to CONFIGURED with the given binding. */
    public static String configuredMachine(ProviderClient client, String cluster, Map<String, String> metadata) {
        String id = idleMachine(client);
        configure(client, id, cluster, metadata);
        return id;
    }
}
