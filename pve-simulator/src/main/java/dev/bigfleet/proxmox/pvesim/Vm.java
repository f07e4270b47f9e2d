package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One QEMU VM's mutable state. {@code config} is what QEMU runs with; {@code pending} holds
 * cores/memory/agent changes made while running, applied at the next stop, as Proxmox does without
 * hotplug. Guest state (files, execs, the agent) is lost on every stop.
 */
final class Vm {
    final int vmid;
    String node;
    final LinkedHashMap<String, Object> config = new LinkedHashMap<>();
    final LinkedHashMap<String, Object> pending = new LinkedHashMap<>();
    boolean running;
    long startedAtNanos;
    long startedAtEpoch;
    /** When the agent answers, in {@link System#nanoTime()} terms; meaningless while stopped. */
    long agentReadyAtNanos;

    boolean agentNeverUp;
    final TreeMap<String, GuestFile> files = new TreeMap<>();
    final Map<Integer, ExecState> liveExecs = new LinkedHashMap<>();
    final List<ExecState> execHistory = new ArrayList<>();
    int nextGuestPid = 1200;
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

    boolean agentUp(long now) {
        return running && agentEnabled() && !agentNeverUp && now >= agentReadyAtNanos;
    }

    /** QEMU quits: pending changes become active, exec pids are lost, and /run (a tmpfs) is emptied. */
    void powerOff() {
        running = false;
        config.putAll(pending);
        pending.clear();
        liveExecs.clear();
        files.keySet().removeIf(p -> p.startsWith("/run/"));
    }

    VmView view(String pool, long now) {
        Map<String, Object> shown = effectiveConfig();
        Object d = shown.get("description");
        List<GuestExec> execs = new ArrayList<>();
        for (ExecState e : execHistory) {
            execs.add(e.view(now));
        }
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
                agentUp(now),
                files,
                execs);
    }
}
