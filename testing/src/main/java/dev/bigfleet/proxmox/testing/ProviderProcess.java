package dev.bigfleet.proxmox.testing;

import dev.bigfleet.proxmox.server.ProviderMain;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One provider process, started with exactly the arguments given (a test of a bad command line
 * starts one directly); its stderr read line by line as it comes ({@link #log()}), its stdout kept
 * ({@link #stdout()}), and the signals a test sends it. {@link TestingProvider} starts its
 * processes through this.
 */
public final class ProviderProcess implements AutoCloseable {
    private static final Pattern SERVING =
            Pattern.compile("serving CapacityProvider addr=\\S*:(\\d+) .*metrics_addr=(?:\\S*:(\\d+)|off)");
    private static final Pattern JSON_SERVING = Pattern.compile(
            "\"msg\":\"serving CapacityProvider\".*\"addr\":\"[^\"]*:(\\d+)\".*\"metrics_addr\":\"(?:[^\"]*:(\\d+)|off)\"");

    private final Process process;
    private final long startedNanos;
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final Thread reader;
    private final Thread stdoutReader;

    private ProviderProcess(Process process, long startedNanos, Optional<Path> logFile) {
        this.process = process;
        this.startedNanos = startedNanos;
        this.reader = new Thread(() -> read(logFile), "provider-stderr-" + process.pid());
        reader.setDaemon(true);
        reader.start();
        this.stdoutReader = new Thread(this::readStdout, "provider-stdout-" + process.pid());
        stdoutReader.setDaemon(true);
        stdoutReader.start();
    }

    /** Starts the provider {@code launch} names with {@code args} as its whole command line. */
    public static ProviderProcess start(Launch launch, List<String> args) throws IOException {
        return start(launch, args, Optional.empty());
    }

    /** As {@link #start(Launch, List)}, every stderr line also appended to {@code logFile}. */
    public static ProviderProcess start(Launch launch, List<String> args, Optional<Path> logFile) throws IOException {
        return start(launch, args, logFile, Map.of());
    }

    /** As {@link #start(Launch, List)}, with these variables added to its environment. */
    public static ProviderProcess start(Launch launch, List<String> args, Map<String, String> environment)
            throws IOException {
        return start(launch, args, Optional.empty(), environment);
    }

    private static ProviderProcess start(
            Launch launch, List<String> args, Optional<Path> logFile, Map<String, String> environment)
            throws IOException {
        List<String> command = new ArrayList<>();
        switch (launch) {
            case OWN_JVM -> {
                command.add(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString());
                // quick start matters more than peak speed for a provider a test kills and restarts
                command.addAll(ChildJvmClassData.QUICK_START);
                command.addAll(ChildJvmClassData.options());
                command.add("-cp");
                command.add(ChildJvmClassData.classPath());
                command.add(ProviderMain.class.getName());
            }
            case LAUNCHER -> command.add(binProxmox().toString());
            case IN_THIS_JVM -> throw new IllegalArgumentException("a provider in this JVM is no process");
        }
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        long started = System.nanoTime();
        Process process = builder.start();
        process.getOutputStream().close(); // nothing on stdin
        return new ProviderProcess(process, started, logFile);
    }

    /** {@code bin/proxmox} of this checkout: found from the working directory upwards. */
    public static Path binProxmox() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path launcher = dir.resolve("bin").resolve("proxmox");
            if (Files.isExecutable(launcher)) {
                return launcher;
            }
        }
        throw new IllegalStateException("no bin/proxmox above " + Path.of("").toAbsolutePath());
    }

    private void read(Optional<Path> logFile) {
        try (BufferedReader r =
                        new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
                Writer file = logFile.isPresent()
                        ? Files.newBufferedWriter(
                                logFile.get(),
                                StandardCharsets.UTF_8,
                                StandardOpenOption.CREATE,
                                StandardOpenOption.APPEND)
                        : Writer.nullWriter()) {
            String line;
            while ((line = r.readLine()) != null) {
                log.add(line);
                file.write(line);
                file.write('\n');
                file.flush();
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    private void readStdout() {
        try (InputStream in = process.getInputStream()) {
            in.transferTo(stdout);
        } catch (IOException ignored) {
            // the process ended
        }
    }

    /** What the process wrote to stdout so far (all of it once {@link #awaitExit} returned). */
    public String stdout() {
        return stdout.toString(StandardCharsets.UTF_8);
    }

    /** Every line the process wrote to stderr so far. */
    public List<String> log() {
        return log;
    }

    public Process process() {
        return process;
    }

    /** Seconds since the process was started. */
    public double secondsSinceStart() {
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    /** The bound ports of its "serving" log line (text or JSON): gRPC, and HTTP when it serves any. */
    public ServingPorts awaitServing(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            for (String line : log) {
                Matcher m = SERVING.matcher(line);
                if (!m.find()) {
                    m = JSON_SERVING.matcher(line);
                    if (!m.find()) {
                        continue;
                    }
                }
                return new ServingPorts(
                        Integer.parseInt(m.group(1)),
                        m.group(2) == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(m.group(2))));
            }
            failIfExited();
            Thread.sleep(20);
        }
        throw new AssertionError("provider did not start serving: " + log);
    }

    /** Waits until a line of stderr contains {@code text}. */
    public void awaitLine(String text, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (log.stream().anyMatch(l -> l.contains(text))) {
                return;
            }
            failIfExited();
            Thread.sleep(20);
        }
        throw new AssertionError("provider never logged \"" + text + "\": " + log);
    }

    private void failIfExited() {
        if (!process.isAlive()) {
            try {
                reader.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new AssertionError("provider exited with " + process.exitValue() + ": " + log);
        }
    }

    /** Waits for the process to end (and its stderr to be read to the end); returns its exit code. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("provider did not exit: " + log);
        }
        reader.join(5000);
        stdoutReader.join(5000);
        return process.exitValue();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, as a crash: no shutdown hook runs, nothing is flushed; returns once it is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /** SIGTERM, a graceful stop; returns the exit code. */
    public int stop(Duration timeout) throws InterruptedException {
        // through its handle: Process.destroy() also closes the pipes at once, losing what the
        // provider logs while it shuts down
        process.toHandle().destroy();
        return awaitExit(timeout);
    }

    /** SIGINT, as Ctrl-C in a terminal. */
    public void interrupt() {
        signal("INT");
    }

    /** SIGSTOP: the process is frozen, its sockets open, until {@link #thaw()}. */
    public void freeze() {
        signal("STOP");
    }

    /** SIGCONT. */
    public void thaw() {
        signal("CONT");
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .inheritIO()
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IOException("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling the provider", e);
        }
    }

    /** CPU seconds the process has used so far. */
    public double cpuSeconds() {
        return process.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
    }

    /** Kills the process (thawing it first, should it be frozen). */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                thaw();
            } catch (RuntimeException ignored) {
                // it is killed below anyway
            }
            process.destroyForcibly();
        }
    }

    /** The ports a provider logged it serves on. */
    public record ServingPorts(int grpc, OptionalInt http) {}
}
