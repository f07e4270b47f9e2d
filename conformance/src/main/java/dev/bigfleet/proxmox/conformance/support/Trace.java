package dev.bigfleet.proxmox.conformance.support;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Every snapshot of one machine observed during a behaviour (acks and Get polls, in order), and
 * the de-duplicated state sequence derived from it. Behaviours about "the only transitional state
 * ever seen" and "never skips a stable state" are assertions over a trace.
 */
public final class Trace {
    private final List<Machine> observed = new ArrayList<>();

    public Trace add(Machine snapshot) {
        observed.add(snapshot);
        return this;
    }

    public List<Machine> observed() {
        return List.copyOf(observed);
    }

    /** The observed states with consecutive repeats collapsed. */
    public List<MachineState> states() {
        List<MachineState> states = new ArrayList<>();
        for (Machine m : observed) {
            if (states.isEmpty() || states.get(states.size() - 1) != m.getState()) {
                states.add(m.getState());
            }
        }
        return states;
    }

    public Set<MachineState> transitionalSeen() {
        Set<MachineState> seen = EnumSet.noneOf(MachineState.class);
        for (Machine m : observed) {
            if (States.isTransitional(m.getState())) {
                seen.add(m.getState());
            }
        }
        return seen;
    }

    public Machine last() {
        return observed.isEmpty() ? null : observed.get(observed.size() - 1);
    }

    @Override
    public String toString() {
        return states().toString();
    }
}
