package dev.bigfleet.proxmox.pvesim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;

/**
 * qemu-server's side of one VM's guest agent, as its API calls use it (without the cluster lock):
 * a liveness ping before each command ({@code QEMU guest agent is not running} when it gets no
 * answer in 3 s), the command on a connection of its own ({@code VM <vmid> qga command '<cmd>'
 * failed - <reason>} when it gets none in 5 s), and an error answer turned into {@code Agent error:
 * <desc>}.
 */
final class QemuAgent {
    private final int vmid;
    /** Null when the VM was started without the agent: QEMU made no channel for it. */
    private final AgentChannel channel;
    /** Runs with the command's name after the ping answered and before the command is sent. */
    private final java.util.function.Consumer<String> afterPing;

    QemuAgent(int vmid, AgentChannel channel) {
        this(vmid, channel, command -> {});
    }

    QemuAgent(int vmid, AgentChannel channel, java.util.function.Consumer<String> afterPing) {
        this.vmid = vmid;
        this.channel = channel;
        this.afterPing = afterPing;
    }

    /** {@code assert_agent_available}'s last step: the agent answers a ping within 3 s. */
    void assertRunning() {
        try {
            monCmd("guest-ping", null, AgentChannel.PING_TIMEOUT);
        } catch (ApiException e) {
            throw Errors.handler("QEMU guest agent is not running");
        }
    }

    /**
     * {@code mon_cmd}: the command's {@code return}, or {@code {"error": ...}} when the agent
     * answered with an error; an unanswered command throws.
     */
    JsonNode monCmd(String command, JsonNode arguments, Duration timeout) {
        if (channel == null) {
            throw Errors.handler("unable to open monitor socket");
        }
        JsonNode answer;
        try {
            answer = channel.command(command, arguments, timeout);
        } catch (AgentChannel.Failure f) {
            throw Errors.handler(Errors.qgaFailed(vmid, command, f.getMessage()));
        }
        JsonNode ret = answer.get("return");
        if ((ret == null || ret.isNull()) && answer.hasNonNull("error")) {
            ObjectNode e = ApiHandler.JSON.createObjectNode();
            e.set("error", answer.get("error"));
            return e;
        }
        return ret;
    }

    /** {@code agent_cmd}: the ping, {@code guest-<command>}, and {@code check_agent_error}. */
    JsonNode agentCmd(String command, JsonNode arguments, String errorMessage) {
        assertRunning();
        afterPing.accept("guest-" + command);
        JsonNode res = monCmd("guest-" + command, arguments, AgentChannel.TIMEOUT);
        if (res != null && res.isObject() && res.path("error").hasNonNull("desc")) {
            throw Errors.handler("Agent error: " + res.path("error").get("desc").asText());
        }
        if (res == null || res.isNull()) {
            throw Errors.handler("Agent error: " + errorMessage);
        }
        return res;
    }
}
