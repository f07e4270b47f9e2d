package dev.bigfleet.proxmox.conformance.support;

import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURED;
import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURING;
import static dev.bigfleet.proxmox.conformance.support.States.CREATING;
import static dev.bigfleet.proxmox.conformance.support.States.DELETING;
import static dev.bigfleet.proxmox.conformance.support.States.DRAINING;
import static dev.bigfleet.proxmox.conformance.support.States.IDLE;
import static dev.bigfleet.proxmox.conformance.support.States.SPECULATIVE;

import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import java.util.Map;

/**
 * The four legal edges of the wire contract, each with its source, transitional and target
 * state. Tests and the lifecycle model use this table instead of restating it.
 */
public enum Transition {
    CREATE(SPECULATIVE, CREATING, IDLE),
    CONFIGURE(IDLE, CONFIGURING, CONFIGURED),
    DRAIN(CONFIGURED, DRAINING, IDLE),
    DELETE(IDLE, DELETING, SPECULATIVE);

    /** The cluster a generic {@link #send} Configure binds to. */
    public static final String DEFAULT_CLUSTER = "conformance-cluster";

    private final MachineState from;
    private final MachineState transitional;
    private final MachineState to;

    Transition(MachineState from, MachineState transitional, MachineState to) {
        this.from = from;
        this.transitional = transitional;
        this.to = to;
    }

    public MachineState from() {
        return from;
    }

    public MachineState transitional() {
        return transitional;
    }

    public MachineState to() {
        return to;
    }

    /** Sends this kind of mutation (Configure: {@link #DEFAULT_CLUSTER}, no metadata; Drain: grace 0). */
    public Outcome<TransitionAck> send(ProviderClient client, String id, Token token) {
        return switch (this) {
            case CREATE -> client.tryCreate(Requests.create(id, token));
            case CONFIGURE -> client.tryConfigure(Requests.configure(id, DEFAULT_CLUSTER, Map.of(), token));
            case DRAIN -> client.tryDrain(Requests.drain(id, token));
            case DELETE -> client.tryDelete(Requests.delete(id, token));
        };
    }
}
