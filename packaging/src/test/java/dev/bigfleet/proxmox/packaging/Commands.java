package dev.bigfleet.proxmox.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a command to its end, its output collected, for the tools the packaging tests drive. */
public final class Commands {
    private Commands() {}

    /** What a finished command printed (stdout and stderr together) and its exit status. */
    public record Result(int exit, String output) {
        public Result ok() {
            assertThat(exit)
                    .as("exit status of a command that printed:\n%s", output)
                    .isZero();
            return this;
        }
    }

    public static Result run(List<String> command) {
        return run(command, null);
    }

    public static Result run(List<String> command, Path workingDirectory) {
        try {
            Path log = Files.createTempFile("command", ".log");
            try {
                ProcessBuilder builder =
                        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
                if (workingDirectory != null) {
                    builder.directory(workingDirectory.toFile());
                }
                Process process = builder.start();
                if (!process.waitFor(10, TimeUnit.MINUTES)) {
                    process.destroyForcibly();
                    throw new AssertionError("still running after 10 minutes: " + command);
                }
                return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
