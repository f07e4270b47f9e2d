package dev.bigfleet.proxmox.backend.proxmox.client;

import java.util.Map;
import java.util.Optional;

/**
 * What the provider writes into a clone's config with one synchronous PUT, before the first start:
 * size (the balloon target equal to the memory, so that PVE 9 reports the VM's memory correctly),
 * markers, the agent, and when the instance type says so the first NIC ({@code net0}) and
 * the CPU model, and in {@code extra} the type's further entries: the NICs after the first, the
 * PCI devices passed through ({@code hostpciN}, and {@code machine: q35} when one is PCIe), {@code
 * numa} and {@code onboot}.
 */
public record VmSettings(
        int cores,
        long memoryMib,
        TagList tags,
        String description,
        boolean agent,
        Optional<String> net0,
        Optional<String> cpu,
        Map<String, String> extra) {

    public VmSettings {
        extra = Map.copyOf(extra);
    }

    public VmSettings(int cores, long memoryMib, TagList tags, String description, boolean agent) {
        this(cores, memoryMib, tags, description, agent, Optional.empty(), Optional.empty(), Map.of());
    }

    public VmSettings(
            int cores,
            long memoryMib,
            TagList tags,
            String description,
            boolean agent,
            Optional<String> net0,
            Optional<String> cpu) {
        this(cores, memoryMib, tags, description, agent, net0, cpu, Map.of());
    }

    FormParams params() {
        FormParams.Builder b = FormParams.builder()
                .add("cores", cores)
                .add("memory", memoryMib)
                // PVE 9 reports a VM's memory correctly only when the balloon target equals its memory
                .add("balloon", memoryMib)
                .add("tags", tags.wire())
                .add("description", description)
                .flag("agent", agent);
        net0.ifPresent(n -> b.add("net0", n));
        cpu.ifPresent(c -> b.add("cpu", c));
        new java.util.TreeMap<>(extra).forEach(b::add);
        return b.build();
    }
}
