package dev.bigfleet.proxmox.pvesim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A test's way into one running VM's guest, past the API, as an operator at its console would
 * look: it talks to the guest's own agent directly. Obtain it with {@link PveSimulator#guest(int)};
 * each call waits for the agent up to its own timeout and throws {@link IllegalStateException}
 * when the guest does not answer or refuses. {@link #readFile} reads the guest's files without its
 * agent, as someone with the VM's disk mounted would (for guests whose agent cannot run commands).
 */
public final class GuestConsole {
    private static final Duration RUN_LIMIT = Duration.ofSeconds(60);
    private static final int MAX_LINKS = 40;

    private final int vmid;
    private final AgentChannel channel;
    private final Supplier<Optional<Path>> root;

    GuestConsole(int vmid, Supplier<Path> socket, Supplier<Optional<Path>> root) {
        this.vmid = vmid;
        this.channel = new AgentChannel(socket);
        this.root = root;
    }

    /**
     * A file of the running guest, read through the guest's root on the simulator's host rather than
     * its agent (so it works whatever the agent allows, and without one); symbolic links are followed
     * inside the guest. Empty when there is no such regular file.
     *
     * @throws IllegalStateException when the VM runs no sandboxed guest (stopped, or a real VM)
     */
    public Optional<byte[]> readFile(String path) {
        Path top = root.get().orElseThrow(() -> new IllegalStateException("VM " + vmid + " runs no sandboxed guest"));
        Path file = resolveInside(top, path);
        if (file == null || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #readFile} as UTF-8 text. */
    public Optional<String> readFileText(String path) {
        return readFile(path).map(b -> new String(b, StandardCharsets.UTF_8));
    }

    /**
     * Waits up to {@code timeout} for a file to appear in the guest ({@link #readFile}) and returns
     * its text.
     *
     * @throws IllegalStateException when it does not appear in time
     */
    public String awaitFileText(String path, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<String> text = root.get().isPresent() ? readFileText(path) : Optional.empty();
            if (text.isPresent()) {
                return text.get();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("VM " + vmid + ": no " + path + " after " + timeout);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /**
     * {@code path} inside the guest's root {@code top}, its symbolic links resolved as the guest
     * resolves them (an absolute target starts again at the guest's root, {@code ..} stops there);
     * null for a loop or a missing directory on the way.
     */
    private static Path resolveInside(Path top, String path) {
        java.util.ArrayDeque<String> todo = new java.util.ArrayDeque<>();
        for (String part : path.split("/", -1)) {
            if (!part.isEmpty()) {
                todo.add(part);
            }
        }
        java.util.ArrayDeque<String> done = new java.util.ArrayDeque<>();
        int links = 0;
        while (!todo.isEmpty()) {
            String part = todo.poll();
            if (part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                done.pollLast();
                continue;
            }
            Path here = top;
            for (String d : done) {
                here = here.resolve(d);
            }
            Path next = here.resolve(part);
            if (Files.isSymbolicLink(next)) {
                if (++links > MAX_LINKS) {
                    return null;
                }
                String target;
                try {
                    target = Files.readSymbolicLink(next).toString();
                } catch (IOException e) {
                    return null;
                }
                java.util.List<String> parts = new java.util.ArrayList<>();
                for (String t : target.split("/", -1)) {
                    if (!t.isEmpty()) {
                        parts.add(t);
                    }
                }
                if (target.startsWith("/")) {
                    done.clear();
                }
                for (int i = parts.size() - 1; i >= 0; i--) {
                    todo.addFirst(parts.get(i));
                }
                continue;
            }
            done.add(part);
        }
        Path out = top;
        for (String d : done) {
            out = out.resolve(d);
        }
        return out;
    }

    /** Runs a program (no shell unless it is one) and waits up to a minute for its end. */
    public ExecResult run(String... argv) {
        ObjectNode args =
                ApiHandler.JSON.createObjectNode().put("path", argv[0]).put("capture-output", true);
        args.putArray("arg")
                .addAll(Arrays.stream(argv, 1, argv.length)
                        .map(ApiHandler.JSON.getNodeFactory()::textNode)
                        .toList());
        int pid = call("guest-exec", args).get("pid").asInt();
        long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode s =
                    call("guest-exec-status", ApiHandler.JSON.createObjectNode().put("pid", pid));
            if (s.path("exited").asBoolean()) {
                return new ExecResult(
                        s.hasNonNull("exitcode") ? s.get("exitcode").asInt() : null,
                        s.hasNonNull("signal") ? s.get("signal").asInt() : null,
                        text(s.path("out-data")),
                        text(s.path("err-data")));
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        throw new IllegalStateException(
                "VM " + vmid + ": " + String.join(" ", argv) + " still runs after " + RUN_LIMIT.toSeconds() + "s");
    }

    /** {@code sh -c script}, which must exit 0; its stdout. */
    public String sh(String script) {
        ExecResult r = run("/bin/sh", "-c", script);
        if (!r.succeeded()) {
            throw new IllegalStateException("VM " + vmid + ": sh -c '" + script + "' ended with " + r);
        }
        return r.stdout();
    }

    /** The file's bytes, or empty when there is no such file. */
    public Optional<byte[]> read(String path) {
        ExecResult exists = run("/usr/bin/test", "-f", path);
        if (!exists.succeeded()) {
            return Optional.empty();
        }
        JsonNode handle =
                call("guest-file-open", ApiHandler.JSON.createObjectNode().put("path", path));
        try {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            while (true) {
                ObjectNode args = ApiHandler.JSON.createObjectNode().put("count", 1 << 20);
                args.set("handle", handle);
                JsonNode r = call("guest-file-read", args);
                out.writeBytes(Base64.getDecoder().decode(r.path("buf-b64").asText()));
                if (r.path("eof").asBoolean() || r.path("count").asInt() == 0) {
                    return Optional.of(out.toByteArray());
                }
            }
        } finally {
            ObjectNode close = ApiHandler.JSON.createObjectNode();
            close.set("handle", handle);
            call("guest-file-close", close);
        }
    }

    /** The file's text (UTF-8), or empty when there is no such file. */
    public Optional<String> readText(String path) {
        return read(path).map(b -> new String(b, StandardCharsets.UTF_8));
    }

    /** Writes (creating or truncating) a file, as {@code agent/file-write} does. */
    public void write(String path, byte[] content) {
        JsonNode handle = call(
                "guest-file-open",
                ApiHandler.JSON.createObjectNode().put("path", path).put("mode", "wb"));
        ObjectNode args = ApiHandler.JSON
                .createObjectNode()
                .put("buf-b64", Base64.getEncoder().encodeToString(content));
        args.set("handle", handle);
        call("guest-file-write", args);
        ObjectNode close = ApiHandler.JSON.createObjectNode();
        close.set("handle", handle);
        call("guest-file-close", close);
    }

    /** Writes a text file (UTF-8), creating its directory. */
    public void writeText(String path, String text) {
        int slash = path.lastIndexOf('/');
        if (slash > 0) {
            sh("mkdir -p '" + path.substring(0, slash).replace("'", "'\\''") + "'");
        }
        write(path, text.getBytes(StandardCharsets.UTF_8));
    }

    /** The permission bits of a file as {@code stat} prints them, e.g. {@code 600}; empty when absent. */
    public Optional<String> mode(String path) {
        ExecResult r = run("/usr/bin/stat", "-c", "%a", path);
        return r.succeeded() ? Optional.of(r.stdout().strip()) : Optional.empty();
    }

    /**
     * Makes the image's kubeadm test stand-in refuse every {@code kubeadm join} from now on: it
     * writes {@code stderr} and exits with {@code exitCode}.
     */
    public void kubeadmJoinFails(int exitCode, String stderr) {
        writeText("/etc/stand-in/kubeadm-join-fails", exitCode + "\n" + stderr);
    }

    /**
     * Makes the image's kubectl test stand-in fail every {@code kubectl drain} from now on: it
     * writes {@code stderr} and exits with {@code exitCode}.
     */
    public void kubectlDrainFails(int exitCode, String stderr) {
        writeText("/etc/stand-in/kubectl-drain-fails", exitCode + "\n" + stderr);
    }

    /**
     * Makes the image's kubectl test stand-in report the guest's node NotReady: for the next {@code
     * answers} questions about it, or for ever when {@code answers} is negative.
     */
    public void nodeNotReady(int answers) {
        writeText("/etc/stand-in/node-not-ready", (answers < 0 ? "never" : Integer.toString(answers)) + "\n");
    }

    /** Whether the agent answers a ping (waiting for it up to qemu-server's 3 s). */
    public boolean agentAnswers() {
        try {
            return channel.command("guest-ping", null, AgentChannel.PING_TIMEOUT)
                    .has("return");
        } catch (AgentChannel.Failure f) {
            return false;
        }
    }

    private JsonNode call(String command, JsonNode args) {
        JsonNode answer;
        try {
            answer = channel.command(command, args, AgentChannel.TIMEOUT);
        } catch (AgentChannel.Failure f) {
            throw new IllegalStateException("VM " + vmid + ": " + command + ": " + f.getMessage());
        }
        if (answer.has("error")) {
            throw new IllegalStateException("VM " + vmid + ": " + command + ": "
                    + answer.path("error").path("desc").asText());
        }
        return answer.get("return");
    }

    private static String text(JsonNode b64) {
        return b64.isMissingNode() ? "" : new String(Base64.getDecoder().decode(b64.asText()), StandardCharsets.UTF_8);
    }
}
