package dev.bigfleet.proxmox.server.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.server.ProviderMain;
import dev.bigfleet.proxmox.server.RunningProvider;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A backend jar built outside the reactor is found in --plugin-dir and selected by name. */
class PluginDirTest {
    private static final String FACTORY_SOURCE = """
            package example.plugin;

            import dev.bigfleet.proxmox.spi.*;
            import java.util.List;

            public final class EchoBackendFactory implements ProxmoxBackendFactory {
                public int spiVersion() { return BackendSpi.VERSION; }

                public String name() { return "echo-plugin"; }

                public ProxmoxBackend create(BackendContext context) {
                    return new ProxmoxBackend() {
                        public CreatedVm cloneAndStart(CloneSpec spec, OperationContext c) { return new CreatedVm("plugin-node", 4242); }
                        public void ensureRunning(VmTarget t, OperationContext c) {}
                        public void applyBootstrap(BootstrapSpec s, OperationContext c) {}
                        public void drain(DrainSpec s, OperationContext c) {}
                        public void destroy(VmTarget t, OperationContext c) {}
                        public List<ManagedVm> describeManaged() { return List.of(); }
                        public List<NodeStatus> nodes() { return List.of(); }
                    };
                }
            }
            """;

    @TempDir
    Path work;

    private Path buildPluginJar() throws IOException {
        Path src = work.resolve("src/example/plugin/EchoBackendFactory.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, FACTORY_SOURCE);
        Path classes = work.resolve("classes");
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-d", classes.toString(),
                "-classpath", System.getProperty("java.class.path"), src.toString());
        assertThat(rc).as("plugin compiles").isZero();
        Path pluginDir = work.resolve("plugins");
        Files.createDirectories(pluginDir);
        Path jar = pluginDir.resolve("echo-plugin.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
            out.putNextEntry(new JarEntry("META-INF/services/dev.bigfleet.proxmox.spi.ProxmoxBackendFactory"));
            OutputStream o = out;
            o.write("example.plugin.EchoBackendFactory\n".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return pluginDir;
    }

    @Test
    void aBackendJarInThePluginDirIsDiscoveredAndDrivesCreates() throws Exception {
        Path pluginDir = buildPluginJar();
        try (RunningProvider provider = ProviderMain.start("--plugin-dir", pluginDir.toString(),
                "--proxmox-backend", "echo-plugin", "--addr", "127.0.0.1:0", "--metrics-addr", "",
                "--seed-count", "4")) {
            ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", provider.grpcPort()).usePlaintext().build();
            try {
                var stub = CapacityProviderGrpc.newBlockingStub(channel);
                Machine slot = stub.list(ListFilter.getDefaultInstance()).getMachines(0);
                stub.create(CreateRequest.newBuilder().setMachineId(slot.getId()).build());
                await().atMost(Duration.ofSeconds(10)).until(() ->
                        stub.get(MachineRef.newBuilder().setId(slot.getId()).build()).getState() == MachineState.MACHINE_STATE_IDLE);
                Machine idle = stub.get(MachineRef.newBuilder().setId(slot.getId()).build());
                assertThat(idle.getHost().getRef()).isEqualTo("plugin-node/4242");
            } finally {
                channel.shutdownNow();
            }
        }
    }

    @Test
    void withoutThePluginDirTheNameIsUnknownAndTheErrorListsWhatWasFound() {
        assertThatThrownBy(() -> ProviderMain.start("--proxmox-backend", "echo-plugin", "--addr", "127.0.0.1:0",
                "--metrics-addr", ""))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("--proxmox-backend: unknown backend \"echo-plugin\" (found: ")
                .hasMessageContaining("fake")
                .hasMessageNotContaining("echo-plugin,");
    }

    @Test
    void thePluginDirAddsToTheBuiltInBackends() throws Exception {
        Path pluginDir = buildPluginJar();
        BackendRegistry registry = BackendRegistry.discover(Optional.of(pluginDir));
        assertThat(List.of(registry.require("fake"), registry.require("echo-plugin"))).hasSize(2);
    }
}
