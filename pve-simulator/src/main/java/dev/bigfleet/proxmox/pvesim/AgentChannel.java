package dev.bigfleet.proxmox.pvesim;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A VM's guest agent channel, used the way qemu-server's QMP client uses it: one connection per
 * command, {@code guest-sync-delimited} with a fresh id written before the command, the answer read
 * after the last {@code 0xFF} (answers to earlier ids are skipped), and one deadline for the whole
 * exchange.
 *
 * <p>QEMU owns the host end of a real VM's channel and accepts whether or not an agent runs in the
 * guest; what is written waits there for the agent. So while the guest is still booting or its
 * agent is restarting (no socket, or a refused connection) the command waits and is delivered as
 * soon as the agent listens; an agent that goes away after reading the command leaves the channel
 * silent. Both end, like a silent agent, with {@code got timeout} at the deadline.
 */
final class AgentChannel {
    /** qemu-server's default for an agent command. */
    static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** qemu-server's liveness check ({@code qga_check_running}). */
    static final Duration PING_TIMEOUT = Duration.ofSeconds(3);

    private static final AtomicLong SEQUENCE = new AtomicLong();
    /** An answer may carry 16 MiB of output, base64-encoded in one string. */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .build())
            .build());

    private static final long RETRY_MILLIS = 20;

    /** A command that got no answer: the text qemu-server puts after {@code failed - }. */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String reason) {
            super(reason, null, false, false);
        }
    }

    private final Supplier<Path> socket;

    /** @param socket the agent's socket now, or null while there is none (booting, restarting) */
    AgentChannel(Supplier<Path> socket) {
        this.socket = socket;
    }

    /** qemu-server's command ids: its PID, a 0, and a counter. */
    private static long nextId() {
        return Long.parseLong(ProcessHandle.current().pid() + "0" + SEQUENCE.incrementAndGet());
    }

    /**
     * Sends one command and returns the agent's answer, an object holding {@code return} or {@code
     * error}.
     */
    JsonNode command(String execute, JsonNode arguments, Duration timeout) throws Failure {
        long deadline = System.nanoTime() + timeout.toNanos();
        long id = nextId();
        ObjectNode sync = ApiHandler.JSON.createObjectNode().put("execute", "guest-sync-delimited");
        sync.putObject("arguments").put("id", id);
        ObjectNode cmd = ApiHandler.JSON.createObjectNode().put("execute", execute);
        cmd.set("arguments", arguments == null ? ApiHandler.JSON.createObjectNode() : arguments);
        byte[] request = (sync + "\n" + cmd + "\n").getBytes(StandardCharsets.UTF_8);
        try (SocketChannel ch = connect(deadline);
                Selector selector = Selector.open()) {
            if (ch == null) {
                throw new Failure("got timeout");
            }
            ch.register(selector, SelectionKey.OP_WRITE);
            ByteBuffer out = ByteBuffer.wrap(request);
            while (out.hasRemaining()) {
                awaitReady(selector, deadline);
                ch.write(out);
            }
            ch.keyFor(selector).interestOps(SelectionKey.OP_READ);
            ByteArrayOutputStream in = new ByteArrayOutputStream();
            ByteBuffer buf = ByteBuffer.allocate(65536);
            while (true) {
                awaitReady(selector, deadline);
                buf.clear();
                int n = ch.read(buf);
                if (n < 0) {
                    // the agent went away with the command; QEMU's end of the channel stays silent
                    sleepUntil(deadline);
                    throw new Failure("got timeout");
                }
                in.write(buf.array(), 0, n);
                if (holdsNewline(buf.array(), n)) {
                    JsonNode answer = answer(in, id);
                    if (answer != null) {
                        return answer;
                    }
                }
            }
        } catch (IOException e) {
            sleepUntil(deadline);
            throw new Failure("got timeout");
        }
    }

    private static boolean holdsNewline(byte[] chunk, int length) {
        for (int i = 0; i < length; i++) {
            if (chunk[i] == '\n') {
                return true;
            }
        }
        return false;
    }

    /**
     * The answer once the buffer holds, after its last {@code 0xFF}, the sync answer and one more
     * line; null to read on. A sync answer with an older id is dropped from the buffer.
     */
    private static JsonNode answer(ByteArrayOutputStream in, long id) throws Failure {
        byte[] bytes = in.toByteArray();
        int ff = -1;
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] == (byte) 0xFF) {
                ff = i;
                break;
            }
        }
        if (ff < 0) {
            return null;
        }
        String rest = new String(bytes, ff + 1, bytes.length - ff - 1, StandardCharsets.UTF_8);
        int first = rest.indexOf('\n');
        int second = first < 0 ? -1 : rest.indexOf('\n', first + 1);
        if (second < 0) {
            return null;
        }
        JsonNode syncAnswer = parse(rest.substring(0, first).strip());
        JsonNode ret = syncAnswer == null ? null : syncAnswer.get("return");
        if (ret == null || !ret.canConvertToLong() || ret.asLong() == 0) {
            throw new Failure("received response without command id");
        }
        if (ret.asLong() < id) {
            in.reset();
            in.writeBytes(rest.substring(second + 1).getBytes(StandardCharsets.UTF_8));
            return null;
        }
        if (ret.asLong() != id) {
            throw new Failure("got wrong command id '" + ret.asText() + "' (expected " + id + ")");
        }
        return parse(rest.substring(first + 1, second).strip());
    }

    private static JsonNode parse(String line) throws Failure {
        try {
            return JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw new Failure("malformed JSON from the agent: " + e.getOriginalMessage());
        }
    }

    /** Connects as soon as the agent listens; null when it did not before the deadline. */
    private SocketChannel connect(long deadline) {
        while (System.nanoTime() < deadline) {
            Path path = socket.get();
            if (path != null) {
                SocketChannel ch = null;
                try {
                    ch = SocketChannel.open(StandardProtocolFamily.UNIX);
                    ch.configureBlocking(false);
                    if (ch.connect(UnixDomainSocketAddress.of(path)) || ch.finishConnect()) {
                        return ch;
                    }
                } catch (IOException e) {
                    // no socket yet, or no agent behind it: QEMU would hold the command for it
                }
                closeQuietly(ch);
            }
            sleep(Math.min(RETRY_MILLIS, remainingMillis(deadline)));
        }
        return null;
    }

    private static void awaitReady(Selector selector, long deadline) throws Failure, IOException {
        while (true) {
            long left = remainingMillis(deadline);
            if (left <= 0) {
                throw new Failure("got timeout");
            }
            if (selector.select(left) > 0) {
                selector.selectedKeys().clear();
                return;
            }
        }
    }

    private static long remainingMillis(long deadline) {
        long nanos = deadline - System.nanoTime();
        return nanos <= 0 ? 0 : Math.max(1, nanos / 1_000_000);
    }

    private static void sleepUntil(long deadline) {
        sleep(remainingMillis(deadline));
    }

    private static void sleep(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(SocketChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                // nothing to do
            }
        }
    }
}
