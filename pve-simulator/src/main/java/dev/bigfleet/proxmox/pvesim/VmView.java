package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.Map;

/**
 * A snapshot of one simulated QEMU VM (templates included), for test assertions.
 *
 * @param node node currently holding the VM's config
 * @param name config name, or null when unset (e.g. while a clone runs)
 * @param tags the normalised tag list (lower-cased, sorted, de-duplicated)
 * @param description config description, or null
 * @param config the config as {@code GET .../config} shows it (pending values applied, no digest)
 * @param lock the config lock ({@code clone}, ...), or null
 * @param pool the pool the VM belongs to, or null
 * @param agentUp whether the guest's agent listens right now
 * @param execs every exec the API passed to the guest, oldest first
 */
public record VmView(
        int vmid,
        String node,
        String name,
        List<String> tags,
        String description,
        Map<String, Object> config,
        PowerState power,
        boolean template,
        String lock,
        String pool,
        boolean agentUp,
        List<GuestExec> execs) {

    public VmView {
        tags = List.copyOf(tags);
        config = Map.copyOf(config);
        execs = List.copyOf(execs);
    }

    public boolean running() {
        return power == PowerState.RUNNING;
    }

    /** The config memory in MiB. */
    public int memoryMib() {
        Object m = config.get("memory");
        String s = m == null ? "0" : m.toString();
        return Integer.parseInt(s.startsWith("current=") ? s.substring(8) : s);
    }

    /** The config cores, 1 when unset. */
    public int cores() {
        Object c = config.get("cores");
        return c == null ? 1 : ((Number) c).intValue();
    }
}
