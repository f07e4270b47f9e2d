package dev.bigfleet.proxmox.server.metrics;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.EngineObserver;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Turns what the engine reports into metrics: machines by state, zone and type, the hourly cost
 * of machines holding a VM, transitions and their durations, time spent per state, and fencing
 * rejections. Every callback is a few map lookups and adds, as the engine may hold a lock.
 */
public final class EngineMetrics implements EngineObserver {
    private static final double MICROS = 1_000_000;

    /**
     * The gauge key of a machine. Hashed and compared by hand: the generated record methods go
     * through method handles, slow until compiled, and a restart looks up 100,000 of these.
     */
    private record Group(MachineState state, String zone, String instanceType) {
        @Override
        public int hashCode() {
            return (state.hashCode() * 31 + zone.hashCode()) * 31 + instanceType.hashCode();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Group g
                    && state == g.state
                    && zone.equals(g.zone)
                    && instanceType.equals(g.instanceType);
        }
    }

    private final SeriesRegistry registry;
    private final StateClock clock;
    private final Map<Group, LongAdder> machines = new ConcurrentHashMap<>();
    /** Micro-dollars, so adding and removing prices leaves no rounding drift. */
    private final AtomicLong hourlyCostMicros = new AtomicLong();

    public EngineMetrics(SeriesRegistry registry, StateClock clock) {
        this.registry = registry;
        this.clock = clock;
        registry.declare(Families.MACHINES);
        registry.gauge(Families.HOURLY_COST, () -> hourlyCostMicros.get() / MICROS);
        for (TransitionKind kind : TransitionKind.values()) {
            registry.counter(Families.FENCED, kind.label());
            registry.counter(Families.FAILED_RECOVERED, kind.label());
            for (Outcome outcome : Outcome.values()) {
                registry.counter(Families.TRANSITIONS, kind.label(), label(outcome));
                registry.histogram(Families.TRANSITION_DURATION, kind.label(), label(outcome));
            }
        }
        for (String as : new String[] {"idle", "configured", "failed"}) {
            registry.counter(Families.REBUILT_MACHINES, as);
        }
        for (MachineState state : MachineState.values()) {
            registry.histogram(Families.STATE_DURATION, state.name());
        }
    }

    @Override
    public void transitionFinished(TransitionKind kind, Outcome outcome, Duration duration) {
        registry.counter(Families.TRANSITIONS, kind.label(), label(outcome)).inc();
        registry.histogram(Families.TRANSITION_DURATION, kind.label(), label(outcome))
                .observe(duration);
    }

    @Override
    public void failedRecovered(TransitionKind kind) {
        registry.counter(Families.FAILED_RECOVERED, kind.label()).inc();
    }

    @Override
    public void machineRebuilt(String as) {
        registry.counter(Families.REBUILT_MACHINES, as).inc();
    }

    @Override
    public void fenced(TransitionKind kind) {
        registry.counter(Families.FENCED, kind.label()).inc();
    }

    @Override
    public void machineChanged(Machine before, Machine after) {
        if (before != null) {
            count(before, -1);
        }
        if (after != null) {
            count(after, 1);
            clock.enter(after.id(), after.state()).ifPresent(this::observeLeft);
        } else if (before != null) {
            clock.forget(before.id()).ifPresent(this::observeLeft);
        }
    }

    private void observeLeft(StateClock.Entry left) {
        registry.histogram(Families.STATE_DURATION, left.state().name())
                .observe(Duration.between(left.since(), clock.now()));
    }

    private void count(Machine m, int delta) {
        group(new Group(m.state(), m.zone(), m.instanceType())).add(delta);
        if (!m.host().isEmpty()) {
            hourlyCostMicros.addAndGet(delta * Math.round(m.pricePerHour() * MICROS));
        }
    }

    /** The counter of a group; a new zone and type gets all its states at once, so zeros are exported too. */
    private LongAdder group(Group g) {
        LongAdder adder = machines.get(g);
        if (adder != null) {
            return adder;
        }
        for (MachineState state : MachineState.values()) {
            Group each = new Group(state, g.zone(), g.instanceType());
            LongAdder created = machines.computeIfAbsent(each, k -> new LongAdder());
            registry.gauge(Families.MACHINES, created::sum, state.name(), g.zone(), g.instanceType());
        }
        return machines.get(g);
    }

    private static String label(Outcome outcome) {
        return outcome.name().toLowerCase(Locale.ROOT);
    }
}
