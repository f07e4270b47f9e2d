package dev.bigfleet.proxmox.packaging.image;

import dev.bigfleet.proxmox.packaging.Commands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * podman with crun, from the image archive: {@code podman run --read-only} with the state
 * directory as a volume and a tmpfs on {@code /tmp}, on the host network (the tests pick free
 * loopback ports). podman passes SIGTERM on to the provider.
 */
final class PodmanRuntime implements ContainerRuntime {
    private final Path podman;
    private final String image;

    private PodmanRuntime(Path podman, String image) {
        this.podman = podman;
        this.image = image;
    }

    @Override
    public String name() {
        return "podman";
    }

    @Override
    public Process start(List<String> args, Path state, Path log) throws IOException {
        return new ProcessBuilder(command(state, args))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    private List<String> command(Path state, List<String> args) {
        List<String> command = new ArrayList<>(List.of(
                podman.toString(),
                "run",
                "--rm",
                "--read-only",
                "--network=host",
                "--tmpfs=/tmp:rw,mode=1777",
                "--volume=" + state + ":" + STATE_VOLUME,
                image));
        command.addAll(args);
        return command;
    }

    /** podman, when it is installed and can really run the image here (a --version run). */
    static Optional<ContainerRuntime> ifItWorks(Optional<Path> podman, Path archive, String reference, Path state)
            throws IOException {
        if (podman.isEmpty()) {
            return Optional.empty();
        }
        Commands.Result load = Commands.run(List.of(podman.get().toString(), "load", "--input", archive.toString()));
        if (load.exit() != 0) {
            return Optional.empty();
        }
        PodmanRuntime runtime = new PodmanRuntime(podman.get(), "localhost/" + reference);
        Files.createDirectories(state);
        Commands.Result probe = Commands.run(runtime.command(state, List.of("--version")));
        if (probe.exit() != 0) {
            System.err.println("podman cannot run the image here, using the unpacked image instead: " + probe.output());
            Commands.run(List.of(podman.get().toString(), "rmi", "--force", runtime.image));
            return Optional.empty();
        }
        return Optional.of(runtime);
    }
}
