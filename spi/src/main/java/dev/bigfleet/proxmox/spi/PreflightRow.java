package dev.bigfleet.proxmox.spi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The checks of one (instance type, node) pair, in the order they ran. */
public record PreflightRow(String instanceType, String node, List<PreflightStep> steps) {
    public PreflightRow {
        Objects.requireNonNull(instanceType, "instanceType");
        Objects.requireNonNull(node, "node");
        steps = List.copyOf(steps);
    }

    public boolean ok() {
        return steps.stream().noneMatch(PreflightStep::failed);
    }

    public Optional<PreflightStep> step(String name) {
        return steps.stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
