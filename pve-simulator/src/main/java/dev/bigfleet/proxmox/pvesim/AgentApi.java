package dev.bigfleet.proxmox.pvesim;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The guest agent calls: ping, get-osinfo, file-write, exec and exec-status. */
final class AgentApi {
    private static final String AGENT = "/nodes/{node}/qemu/{vmid}/agent";
    static final int NEW_FILE_MODE = 0666;
    private static final String[] AUDIT = {Privileges.VM_GUEST_AGENT_AUDIT, Privileges.VM_GUEST_AGENT_UNRESTRICTED};
    private static final String[] FILE_WRITE = {
        Privileges.VM_GUEST_AGENT_FILE_WRITE, Privileges.VM_GUEST_AGENT_UNRESTRICTED
    };
    private static final String[] UNRESTRICTED = {Privileges.VM_GUEST_AGENT_UNRESTRICTED};

    private final Cluster cluster;

    AgentApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r) {
        r.add("POST", AGENT + "/ping", VmApi.vmSchema(), c -> {
            agentVm(c, AUDIT);
            return Map.of("result", Map.of());
        });
        r.add("GET", AGENT + "/get-osinfo", VmApi.vmSchema(), this::osInfo);
        r.add(
                "POST",
                AGENT + "/file-write",
                VmApi.vmSchema()
                        .string("file", true)
                        .string("content", true, 61440, null)
                        .bool("encode"),
                this::fileWrite);
        r.add(
                "POST",
                AGENT + "/exec",
                VmApi.vmSchema().array("command", true).string("input-data", false, 65536, null),
                this::exec);
        r.add(
                "GET",
                AGENT + "/exec-status",
                VmApi.vmSchema().integer("pid", true, 0, Integer.MAX_VALUE),
                this::execStatus);
    }

    /** The checks every agent call makes first, in Proxmox's order. */
    private Vm agentVm(Call c, String... privileges) {
        cluster.acl.requireVm(c.vmid(), privileges);
        Vm vm = cluster.vmOn(c.node(), c.vmid());
        if (!vm.config.containsKey("agent")) {
            throw Errors.handler("No QEMU guest agent configured");
        }
        if (!vm.running) {
            throw Errors.handler("VM " + vm.vmid + " is not running");
        }
        if (!vm.agentUp(Cluster.now())) {
            throw Errors.handler("QEMU guest agent is not running");
        }
        return vm;
    }

    private Object osInfo(Call c) {
        agentVm(c, AUDIT);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("id", "ubuntu");
        r.put("name", "Ubuntu");
        r.put("pretty-name", "Ubuntu 24.04.1 LTS");
        r.put("version", "24.04.1 LTS (Noble Numbat)");
        r.put("version-id", "24.04");
        r.put("kernel-release", "6.8.0-45-generic");
        r.put("kernel-version", "#45-Ubuntu SMP PREEMPT_DYNAMIC");
        r.put("machine", "x86_64");
        return Map.of("result", r);
    }

    private Object fileWrite(Call c) {
        Vm vm = agentVm(c, FILE_WRITE);
        String file = c.params().str("file");
        String content = c.params().str("content");
        byte[] bytes;
        if (c.params().bool("encode", true)) {
            // Proxmox base64-encodes the characters itself, which only works for code points < 256.
            for (int i = 0; i < content.length(); i++) {
                if (content.charAt(i) > 0xFF) {
                    throw Errors.handler("Wide character in subroutine entry");
                }
            }
            bytes = content.getBytes(StandardCharsets.ISO_8859_1);
        } else {
            try {
                bytes = Base64.getMimeDecoder().decode(content);
            } catch (IllegalArgumentException e) {
                throw Errors.handler(Errors.qgaFailed(
                        vm.vmid, "guest-file-write", "Guest agent command failed, error was 'base64 data is invalid'"));
            }
        }
        new GuestFiles(vm).write(file, bytes, NEW_FILE_MODE);
        return null;
    }

    private Object exec(Call c) {
        Vm vm = agentVm(c, UNRESTRICTED);
        List<String> argv = c.params().list("command");
        String input = c.params().has("input-data") ? c.params().str("input-data") : "";
        ExecResult result = decide(vm, argv, input);
        Duration runFor = result.duration() != null ? result.duration() : cluster.delays.exec();
        int pid = vm.nextGuestPid++;
        ExecState e = new ExecState(pid, argv, input, result, Cluster.now() + runFor.toNanos());
        vm.liveExecs.put(pid, e);
        vm.execHistory.add(e);
        return Map.of("pid", pid);
    }

    /** Injected results first, then the test's handler, then the built-in guest. */
    private ExecResult decide(Vm vm, List<String> argv, String input) {
        ExecResult next = cluster.faults.nextExecs.poll();
        if (next != null) {
            return next;
        }
        String line = String.join(" ", argv);
        for (FaultState.ExecRule rule : cluster.faults.execRules) {
            if (rule.commandLine().matcher(line).find()) {
                return rule.result();
            }
        }
        GuestFiles files = new GuestFiles(vm);
        GuestCommandHandler h = cluster.faults.guestCommands;
        if (h != null) {
            ExecResult r = h.run(files, argv, input);
            if (r != null) {
                return r;
            }
        }
        return new GuestShell(files).run(argv, input);
    }

    private Object execStatus(Call c) {
        Vm vm = agentVm(c, UNRESTRICTED);
        int pid = c.params().integer("pid");
        ExecState e = vm.liveExecs.get(pid);
        if (e == null) {
            throw Errors.handler(Errors.qgaFailed(vm.vmid, "guest-exec-status", "Invalid parameter 'pid'"));
        }
        Map<String, Object> s = new LinkedHashMap<>();
        if (!e.exited(Cluster.now())) {
            s.put("exited", 0);
            return s;
        }
        // The agent forgets a pid once it has reported its exit.
        vm.liveExecs.remove(pid);
        e.reported = true;
        s.put("exited", 1);
        if (e.result.signal() != null) {
            s.put("signal", e.result.signal());
        } else {
            s.put("exitcode", e.result.exitCode());
        }
        if (!e.result.stdout().isEmpty()) {
            s.put("out-data", e.result.stdout());
        }
        if (!e.result.stderr().isEmpty()) {
            s.put("err-data", e.result.stderr());
        }
        return s;
    }
}
