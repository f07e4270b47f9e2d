package dev.bigfleet.proxmox.pvesim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code /nodes/{node}/qemu/{vmid}/agent/...} calls, passed to the VM's real guest agent the way
 * qemu-server's {@code PVE::API2::Qemu::Agent} does: the plain commands ({@code ping}, {@code
 * get-osinfo}, ...), {@code exec} and {@code exec-status} (output decoded, flags as 0/1), {@code
 * file-write} (open {@code wb}, write, close) and {@code file-read} (open, seek, read in 1 MiB
 * pieces, close). The checks before the guest is asked (privileges, the VM, {@code agent} in its
 * config, running) happen under the cluster lock; the guest is asked without it.
 */
final class AgentApi {
    private static final String AGENT = "/nodes/{node}/qemu/{vmid}/agent";
    /** {@code file-read}'s limit: 16 MiB. */
    private static final int MAX_READ_SIZE = 16 * 1024 * 1024;

    private static final int READ_CHUNK = 1024 * 1024;
    private static final String[] AUDIT = {Privileges.VM_GUEST_AGENT_AUDIT, Privileges.VM_GUEST_AGENT_UNRESTRICTED};
    private static final String[] FILE_READ = {
        Privileges.VM_GUEST_AGENT_FILE_READ, Privileges.VM_GUEST_AGENT_UNRESTRICTED
    };
    private static final String[] FILE_WRITE = {
        Privileges.VM_GUEST_AGENT_FILE_WRITE, Privileges.VM_GUEST_AGENT_UNRESTRICTED
    };
    private static final String[] UNRESTRICTED = {Privileges.VM_GUEST_AGENT_UNRESTRICTED};

    /** The commands without parameters that only read, with their HTTP method. */
    private static final Map<String, String> PLAIN = new LinkedHashMap<>();

    static {
        PLAIN.put("ping", "POST");
        PLAIN.put("get-time", "GET");
        PLAIN.put("info", "GET");
        PLAIN.put("network-get-interfaces", "GET");
        PLAIN.put("get-vcpus", "GET");
        PLAIN.put("get-fsinfo", "GET");
        PLAIN.put("get-host-name", "GET");
        PLAIN.put("get-osinfo", "GET");
        PLAIN.put("get-users", "GET");
        PLAIN.put("get-timezone", "GET");
    }

    private final Cluster cluster;

    AgentApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r) {
        PLAIN.forEach((command, method) -> r.add(method, AGENT + "/" + command, VmApi.vmSchema(), c -> {
            QemuAgent agent = agent(c, AUDIT);
            return (Unlocked) () -> {
                agent.assertRunning();
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("result", agent.monCmd("guest-" + command, null, AgentChannel.TIMEOUT));
                return out;
            };
        }));
        r.add(
                "POST",
                AGENT + "/file-write",
                VmApi.vmSchema()
                        .string("file", true)
                        .string("content", true, 61440, null)
                        .bool("encode"),
                this::fileWrite);
        r.add(
                "GET",
                AGENT + "/file-read",
                VmApi.vmSchema()
                        .string("file", true)
                        .integer("count", false, 1, MAX_READ_SIZE)
                        .integer("offset", false, 0, Long.MAX_VALUE)
                        .bool("decode"),
                this::fileRead);
        r.add(
                "POST",
                AGENT + "/exec",
                VmApi.vmSchema().array("command", true).string("input-data", false, 65536, null),
                this::exec);
        r.add(
                "GET",
                AGENT + "/exec-status",
                VmApi.vmSchema().integer("pid", true, Integer.MIN_VALUE, Integer.MAX_VALUE),
                this::execStatus);
    }

    /**
     * The checks every agent call makes first, in Proxmox's order, under the lock: privileges, the
     * VM, an {@code agent} line in its config, running. The agent's liveness comes after, outside.
     */
    private QemuAgent agent(Call c, String... privileges) {
        cluster.acl.requireVm(c.vmid(), privileges);
        Vm vm = cluster.vmOn(c.node(), c.vmid());
        if (!vm.config.containsKey("agent")) {
            throw Errors.handler("No QEMU guest agent configured");
        }
        if (!vm.running) {
            throw Errors.handler("VM " + vm.vmid + " is not running");
        }
        Guests.Boot boot = cluster.guests.boot(vm.vmid);
        return new QemuAgent(
                vm.vmid,
                boot == null ? null : new AgentChannel(boot::socket),
                command -> freezeIfDue(vm.vmid, command));
    }

    /** The fault {@link Faults#freezeAgentBefore}: taken once, when its command is about to be sent. */
    private void freezeIfDue(int vmid, String command) {
        Duration freeze;
        Guests.Boot boot;
        synchronized (cluster) {
            java.util.Map<String, Duration> due = cluster.faults.agentFreezes.get(vmid);
            freeze = due == null ? null : due.remove(command);
            boot = cluster.guests.boot(vmid);
        }
        GuestMachine guest = boot == null ? null : boot.sandbox();
        if (freeze != null && guest != null) {
            guest.freezeAgent(true);
            Thread thaw = new Thread(
                    () -> {
                        try {
                            Thread.sleep(freeze.toMillis());
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        guest.freezeAgent(false);
                    },
                    "pve-simulator-agent-thaw");
            thaw.setDaemon(true);
            thaw.start();
        }
    }

    /** Perl's {@code encode_base64} of a character string: bytes below 256 only, 76-column lines. */
    private static String perlBase64(String text, boolean lines) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 0xFF) {
                throw Errors.handler("Wide character in subroutine entry");
            }
        }
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        if (!lines) {
            return Base64.getEncoder().encodeToString(bytes);
        }
        String b64 = Base64.getMimeEncoder(76, new byte[] {'\n'}).encodeToString(bytes);
        return b64.isEmpty() ? b64 : b64 + "\n";
    }

    /** What Perl hands on after {@code decode_base64}: one character per byte. */
    private static String perlDecoded(JsonNode b64) {
        return new String(Base64.getMimeDecoder().decode(b64.asText()), StandardCharsets.ISO_8859_1);
    }

    private Object fileWrite(Call c) {
        QemuAgent agent = agent(c, FILE_WRITE);
        String file = c.params().str("file");
        String content = c.params().str("content");
        boolean encode = c.params().bool("encode", true);
        return (Unlocked) () -> {
            String buf = encode ? perlBase64(content, true) : content;
            ObjectNode open =
                    ApiHandler.JSON.createObjectNode().put("path", file).put("mode", "wb");
            JsonNode handle = agent.agentCmd("file-open", open, "can't open file");
            ObjectNode write = ApiHandler.JSON.createObjectNode().put("buf-b64", buf);
            write.set("handle", handle);
            agent.agentCmd("file-write", write, "can't write to file");
            ObjectNode close = ApiHandler.JSON.createObjectNode();
            close.set("handle", handle);
            agent.agentCmd("file-close", close, "can't close file");
            return null;
        };
    }

    private Object fileRead(Call c) {
        QemuAgent agent = agent(c, FILE_READ);
        String file = c.params().str("file");
        boolean countGiven = c.params().has("count");
        long count = countGiven ? Long.parseLong(c.params().str("count").trim()) : MAX_READ_SIZE;
        long offset = c.params().has("offset")
                ? Long.parseLong(c.params().str("offset").trim())
                : 0;
        boolean decode = c.params().bool("decode", true);
        return (Unlocked) () -> {
            JsonNode handle = agent.agentCmd(
                    "file-open", ApiHandler.JSON.createObjectNode().put("path", file), "can't open file");
            if (offset > 0) {
                ObjectNode seek =
                        ApiHandler.JSON.createObjectNode().put("offset", offset).put("whence", "set");
                seek.set("handle", handle);
                JsonNode r = agent.monCmd("guest-file-seek", seek, AgentChannel.TIMEOUT);
                checkAgentError(r, "can't seek to offset position");
            }
            long read = 0;
            boolean eof = false;
            StringBuilder content = new StringBuilder();
            while (read < count && !eof) {
                ObjectNode args = ApiHandler.JSON.createObjectNode().put("count", Math.min(count - read, READ_CHUNK));
                args.set("handle", handle);
                JsonNode r = agent.monCmd("guest-file-read", args, AgentChannel.TIMEOUT);
                checkAgentError(r, "can't read from file");
                content.append(
                        decode
                                ? perlDecoded(r.path("buf-b64"))
                                : r.path("buf-b64").asText());
                read += r.path("count").asLong();
                eof = r.path("eof").asBoolean(false);
            }
            ObjectNode close = ApiHandler.JSON.createObjectNode();
            close.set("handle", handle);
            agent.monCmd("guest-file-close", close, AgentChannel.TIMEOUT);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("content", content.toString());
            out.put("bytes-read", read);
            if (!eof) {
                out.put("truncated", 1);
            }
            return out;
        };
    }

    /** {@code check_agent_error} for the commands file-read sends without {@code agent_cmd}. */
    private static void checkAgentError(JsonNode res, String errorMessage) {
        if (res != null && res.isObject() && res.path("error").hasNonNull("desc")) {
            throw Errors.handler("Agent error: " + res.path("error").get("desc").asText());
        }
        if (res == null || res.isNull()) {
            throw Errors.handler("Agent error: " + errorMessage);
        }
    }

    private Object exec(Call c) {
        QemuAgent agent = agent(c, UNRESTRICTED);
        int vmid = c.vmid();
        List<String> argv = c.params().list("command");
        String input = c.params().str("input-data");
        return (Unlocked) () -> {
            ObjectNode args = ApiHandler.JSON.createObjectNode().put("capture-output", true);
            if (!argv.isEmpty()) {
                args.put("path", argv.get(0));
                args.putArray("arg")
                        .addAll(argv.subList(1, argv.size()).stream()
                                .map(ApiHandler.JSON.getNodeFactory()::textNode)
                                .toList());
            } else {
                args.putNull("path");
                args.putArray("arg");
            }
            if (input != null) {
                args.put("input-data", perlBase64(input, false));
            }
            JsonNode res = agent.agentCmd("exec", args, "can't execute command");
            if (res.hasNonNull("pid")) {
                synchronized (cluster) {
                    Vm vm = cluster.vms.get(vmid);
                    if (vm != null) {
                        vm.execHistory.add(new GuestExec(res.get("pid").asInt(), argv, input, null));
                    }
                }
            }
            return res;
        };
    }

    private Object execStatus(Call c) {
        QemuAgent agent = agent(c, UNRESTRICTED);
        int vmid = c.vmid();
        int pid = c.params().integer("pid");
        return (Unlocked) () -> {
            JsonNode res = agent.agentCmd(
                    "exec-status",
                    ApiHandler.JSON.createObjectNode().put("pid", pid),
                    "can't get exec status for '" + pid + "'");
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> f : res.properties()) {
                JsonNode v = f.getValue();
                if (f.getKey().equals("out-data") || f.getKey().equals("err-data")) {
                    out.put(f.getKey(), perlDecoded(v));
                } else if (v.isBoolean()) {
                    out.put(f.getKey(), v.asBoolean() ? 1 : 0);
                } else {
                    out.put(f.getKey(), v);
                }
            }
            if (res.path("exited").asBoolean(false)) {
                ExecResult end = new ExecResult(
                        res.hasNonNull("exitcode") ? res.get("exitcode").asInt() : null,
                        res.hasNonNull("signal") ? res.get("signal").asInt() : null,
                        (String) out.getOrDefault("out-data", ""),
                        (String) out.getOrDefault("err-data", ""));
                synchronized (cluster) {
                    Vm vm = cluster.vms.get(vmid);
                    if (vm != null) {
                        vm.execEnded(pid, end);
                    }
                }
            }
            return out;
        };
    }
}
