package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.TransitionKind;
import java.time.Duration;

/**
 * Hears what the engine does, for metrics. Called on engine and store threads, often inside a
 * machine's change: implementations must be quick and must not call back into the engine.
 */
public interface EngineObserver {
    EngineObserver NONE = new EngineObserver() {};

    /** How a transition ended. */
    enum Outcome {
        SUCCESS,
        ERROR,
        TIMEOUT
    }

    /** A transition reached its target, failed or timed out, {@code duration} after it was accepted. */
    default void transitionFinished(TransitionKind kind, Outcome outcome, Duration duration) {}

    /** A mutation was refused by the fence. */
    default void fenced(TransitionKind kind) {}

    /** The reconciler destroyed VMs that no live machine owned. */
    default void orphansReaped(int count) {}

    /**
     * At startup the cluster said more than the store: a machine was rebuilt from its VM, {@code as}
     * {@code idle}, {@code configured} or {@code failed} (a FAILED machine whose cleanup now drains
     * first, because its VM is bound).
     */
    default void machineRebuilt(String as) {}

    /** A FAILED machine that had failed in {@code kind} was cleaned up and is SPECULATIVE again. */
    default void failedRecovered(TransitionKind kind) {}

    /**
     * A machine was added ({@code before} null) or changed; gauges by state, zone and type follow
     * from these.
     */
    default void machineChanged(Machine before, Machine after) {}
}
