package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One QEMU VM's mutable state. {@code config} is what QEMU runs with; {@code pending} holds
 * cores/memory/agent changes made while running, applied at the next stop, as Proxmox does without
 * hotplug. {@code disk} is what its guest boots (null for a VM without one yet); what a running
 * guest keeps in memory and {@code /run} is lost on every stop.
 */
final class Vm {
    final int vmid;
    String node;
    final LinkedHashMap<String, Object> config = new LinkedHashMap<>();
    final LinkedHashMap<String, Object> pending = new LinkedHashMap<>();
    /** Options deleted while running that stay until QEMU restarts (an IDE or SATA drive). */
    final java.util.Set<String> pendingDelete = new java.util.LinkedHashSet<>();

    boolean running;
    long startedAtNanos;
    long startedAtEpoch;
    boolean agentNeverUp;
    GuestDisk disk;
    /** Every agent/exec passed to the guest, oldest first. */
    final List<GuestExec> execHistory = new ArrayList<>();
    /** Last statistics sample for /cluster/resources; null until the first one. */
    StatsSample stats;

    Vm(int vmid, String node) {
        this.vmid = vmid;
        this.node = node;
    }

    String lock() {
        Object l = config.get("lock");
        return l == null ? null : l.toString();
    }

    boolean template() {
        return Integer.valueOf(1).equals(config.get("template"));
    }

    String name() {
        Object n = config.get("name");
        return n == null ? null : n.toString();
    }

    /** The config with pending values applied, as GET config shows it by default. */
    Map<String, Object> effectiveConfig() {
        LinkedHashMap<String, Object> out = new LinkedHashMap<>(config);
        out.putAll(pending);
        out.keySet().removeAll(pendingDelete);
        return out;
    }

    int memoryMib() {
        return memoryMib(config.get("memory"));
    }

    static int memoryMib(Object value) {
        if (value == null) {
            return 512;
        }
        String s = value.toString();
        return Integer.parseInt(s.startsWith("current=") ? s.substring(8) : s);
    }

    int vcpus() {
        int cores = config.get("cores") instanceof Number n ? n.intValue() : 1;
        int sockets = config.get("sockets") instanceof Number n ? n.intValue() : 1;
        return cores * sockets;
    }

    /** Whether the running config enables the agent channel ({@code agent: 1} or {@code enabled=1}). */
    boolean agentEnabled() {
        Object a = config.get("agent");
        if (a == null) {
            return false;
        }
        String first = a.toString().split(",", 2)[0].trim();
        if (first.startsWith("enabled=")) {
            first = first.substring("enabled=".length());
        }
        return first.equals("1")
                || first.equalsIgnoreCase("true")
                || first.equalsIgnoreCase("yes")
                || first.equalsIgnoreCase("on");
    }

    /** QEMU quits: pending changes become active. */
    void powerOff() {
        running = false;
        config.putAll(pending);
        pending.clear();
        config.keySet().removeAll(pendingDelete);
        pendingDelete.clear();
    }

    /** Records that exec-status reported the end of {@code pid}. */
    void execEnded(int pid, ExecResult end) {
        for (int i = execHistory.size() - 1; i >= 0; i--) {
            if (execHistory.get(i).pid() == pid && !execHistory.get(i).exited()) {
                execHistory.set(i, execHistory.get(i).ended(end));
                return;
            }
        }
    }

    VmView view(String pool, boolean agentUp) {
        Map<String, Object> shown = effectiveConfig();
        Object d = shown.get("description");
        return new VmView(
                vmid,
                node,
                name(),
                Tags.split(shown.get("tags")),
                d == null ? null : d.toString(),
                shown,
                running ? PowerState.RUNNING : PowerState.STOPPED,
                template(),
                lock(),
                pool,
                agentUp,
                execHistory);
    }
}
