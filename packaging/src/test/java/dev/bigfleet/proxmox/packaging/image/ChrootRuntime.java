package dev.bigfleet.proxmox.packaging.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where no container runtime works (crun refuses a host with hybrid cgroups, for one), the image
 * unpacked with umoci into a runtime bundle and its process started from the bundle's
 * {@code config.json}, which umoci derives from the image: args, uid and gid, environment and
 * working directory. {@code run-in-chroot.sh} mounts and chroots as a runtime would.
 */
final class ChrootRuntime implements ContainerRuntime {
    private final Path rootfs;
    private final JsonNode process;
    private final Path script;

    ChrootRuntime(Path bundle, Path script) throws IOException {
        this.rootfs = bundle.resolve("rootfs");
        this.process = new ObjectMapper()
                .readTree(bundle.resolve("config.json").toFile())
                .get("process");
        this.script = script;
    }

    @Override
    public String name() {
        return "umoci unpack + chroot";
    }

    @Override
    public Process start(List<String> args, Path state, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                "/bin/bash",
                script.toString(),
                rootfs.toString(),
                state.toString(),
                STATE_VOLUME,
                process.get("cwd").asText(),
                process.get("user").get("uid").asText(),
                process.get("user").get("gid").asText()));
        process.get("args").forEach(a -> command.add(a.asText()));
        command.addAll(args);
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.clear();
        process.get("env").forEach(e -> {
            String[] kv = e.asText().split("=", 2);
            env.put(kv[0], kv[1]);
        });
        return builder.start();
    }

    static ContainerRuntime unpack(OciImage image, Path umoci, Path bundle, Path script) throws IOException {
        image.unpack(umoci, bundle);
        Files.createDirectories(bundle.resolve("rootfs").resolve("tmp"));
        return new ChrootRuntime(bundle, script);
    }
}
