package dev.bigfleet.proxmox.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs the provider's real {@code main} in its own JVM, as an operator would, and reads its stderr. */
public final class ProcessHarness implements AutoCloseable {
    private static final Pattern SERVING =
            Pattern.compile("serving CapacityProvider addr=\\S*:(\\d+) .*metrics_addr=(?:\\S*:(\\d+)|off)");
    public final Process process;
    public final List<String> stderr = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private ProcessHarness(Process process) {
        this.process = process;
        this.reader = new Thread(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    stderr.add(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
    }

    public static ProcessHarness start(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // quick start matters more than peak speed for a provider a test kills and restarts
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ProviderMain.class.getName());
        command.addAll(List.of(args));
        return new ProcessHarness(new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start());
    }

    /** Waits for the "serving" log line and returns {grpcPort, httpPort}. */
    public int[] awaitServing(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            for (String line : stderr) {
                Matcher m = SERVING.matcher(line);
                if (m.find()) {
                    return new int[] {
                        Integer.parseInt(m.group(1)), m.group(2) == null ? -1 : Integer.parseInt(m.group(2))
                    };
                }
            }
            if (!process.isAlive()) {
                throw new AssertionError("provider exited with " + process.exitValue() + ": " + stderr);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("provider did not start serving: " + stderr);
    }

    /** Waits for a replica's log line saying it leads (after its "serving" line, as a standby). */
    public void awaitLeading(Duration timeout) throws InterruptedException {
        awaitLine("leading (epoch ", timeout);
    }

    /** Waits until a line of stderr contains {@code text}. */
    public void awaitLine(String text, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (stderr.stream().anyMatch(l -> l.contains(text))) {
                return;
            }
            if (!process.isAlive()) {
                throw new AssertionError("provider exited with " + process.exitValue() + ": " + stderr);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("provider never logged \"" + text + "\": " + stderr);
    }

    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("provider did not exit: " + stderr);
        }
        reader.join(2000);
        return process.exitValue();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
