package dev.bigfleet.proxmox.server.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.cfg.PackageVersion;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.spi.BackendSpi;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.ProviderProcess;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backend plugin built outside the server, the example of {@code examples/backend-example}, is
 * found in {@code --plugin-dir}, selected by name, configured with {@code --backend-opt} or {@code
 * --backend-config}, and runs in a class loader of its own, next to the server's libraries.
 */
class PluginDirTest {
    @TempDir
    Path work;

    /** A provider on the example plugin of {@code plugins}, with four slots and no HTTP unless asked. */
    private static TestingProvider.Builder onPlugin(Path plugins) {
        return TestingProvider.builder()
                .backend(ExamplePlugin.NAME)
                .flags("--plugin-dir", plugins.toString())
                .seedCount(4)
                .noHttp();
    }

    /** Creates the first slot over gRPC and waits until it is IDLE; returns it. */
    private static Machine createToIdle(TestingProvider provider) {
        var stub = provider.grpc();
        Machine slot = stub.list(ListFilter.getDefaultInstance()).getMachines(0);
        MachineRef ref = MachineRef.newBuilder().setId(slot.getId()).build();
        stub.create(CreateRequest.newBuilder().setMachineId(slot.getId()).build());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> stub.get(ref).getState() != MachineState.MACHINE_STATE_CREATING);
        Machine idle = stub.get(ref);
        assertThat(idle.getState())
                .as("the Create's outcome; last_error: %s", idle.getLastError())
                .isEqualTo(MachineState.MACHINE_STATE_IDLE);
        return idle;
    }

    @Test
    void theExamplePluginIsLoadedFromThePluginDirAndDrivesACreateToIdle() throws Exception {
        Path state = work.resolve("vms.json");
        try (TestingProvider provider = onPlugin(ExamplePlugin.directory())
                .flags("--backend-opt", "boot-delay=20ms", "--backend-opt", "state-file=" + state)
                .build()) {
            Machine idle = createToIdle(provider);

            assertThat(idle.getHost().getRef())
                    .as("host of the created machine")
                    .matches("\\Q" + idle.getZone() + "\\E/\\d+");
            assertThat(Files.readString(state, StandardCharsets.UTF_8))
                    .as("the plugin's state file")
                    .contains("\"machine_id\" : \"" + idle.getId() + "\"")
                    .contains("\"vmid\" : "
                            + idle.getHost().getRef().substring(idle.getZone().length() + 1));
        }
    }

    @Test
    void thePluginRunsOnItsOwnJacksonWhileTheServerRunsOnAnother() throws Exception {
        String serverJackson = PackageVersion.VERSION.toString();
        Path state = work.resolve("vms.json");
        Path config = work.resolve("backend.json");
        Files.writeString(
                config, "{\"boot-delay\": \"0s\", \"state-file\": \"" + state + "\"}", StandardCharsets.UTF_8);
        try (TestingProvider provider = TestingProvider.builder()
                .backend(ExamplePlugin.NAME)
                .flags("--plugin-dir", ExamplePlugin.directory().toString())
                .seedCount(4)
                .flags("--backend-config", config.toString())
                .build()) {
            createToIdle(provider);
            // the server's own Jackson renders its JSON API in the same JVM meanwhile
            HttpResponse<String> summary = provider.get("/api/v1/summary");
            assertThat(summary.statusCode()).isEqualTo(200);
            assertThat(summary.body()).contains("\"backend\":\"" + ExamplePlugin.NAME + "\"");
        }

        assertThat(serverJackson).as("the server's jackson-databind").isNotEqualTo(ExamplePlugin.JACKSON);
        assertThat(Files.readString(state, StandardCharsets.UTF_8))
                .as("the state file the plugin wrote")
                .contains("\"written_by\" : \"backend-example with jackson-databind " + ExamplePlugin.JACKSON + "\"");
    }

    @Test
    void anUnknownOptionOfThePluginIsRefusedNamingTheKeyTheBackendAndTheNearestOne() throws Exception {
        Path plugins = ExamplePlugin.directory();
        Path config = work.resolve("backend.json");
        Files.writeString(config, "{\"boot-dealy\": \"1s\"}", StandardCharsets.UTF_8);

        assertThatThrownBy(() -> onPlugin(plugins)
                        .flags("--backend-opt", "stat-file=/var/lib/example/vms.json")
                        .build())
                .isInstanceOf(ConfigException.class)
                .hasMessage("--backend-opt stat-file: backend example has no option \"stat-file\" (did you mean"
                        + " \"state-file\"?); its options: state-file, boot-delay");
        assertThatThrownBy(() -> onPlugin(plugins)
                        .flags("--backend-config", config.toString())
                        .build())
                .isInstanceOf(ConfigException.class)
                .hasMessage("--backend-config " + config + ": $[\"boot-dealy\"]: backend example has no option"
                        + " \"boot-dealy\" (did you mean \"boot-delay\"?); its options: state-file, boot-delay");
    }

    @Test
    void aPluginBuiltForAnotherSpiVersionIsRefusedAtStartupWithOneLine() throws Exception {
        Path plugins = work.resolve("plugins");
        Path jar = PluginJar.write(plugins.resolve("future-plugin.jar"), FutureSpiBackendFactory.class);

        try (ProviderProcess provider = ProviderProcess.start(
                Launch.OWN_JVM,
                List.of(
                        "--plugin-dir",
                        plugins.toString(),
                        "--proxmox-backend",
                        "future",
                        "--addr",
                        "127.0.0.1:0",
                        "--metrics-addr",
                        ""))) {
            assertThat(provider.awaitExit(Duration.ofSeconds(60)))
                    .as("exit code")
                    .isEqualTo(1);
            assertThat(provider.log())
                    .as("stderr of the refused start")
                    .filteredOn(l -> l.startsWith("error: "))
                    .containsExactly("error: --plugin-dir: backend plugin " + jar + " ("
                            + FutureSpiBackendFactory.class.getName() + ") speaks backend SPI version "
                            + FutureSpiBackendFactory.SPI_VERSION + "; this provider supports version "
                            + BackendSpi.VERSION);
        }
    }

    @Test
    void withoutThePluginDirTheExampleIsUnknownAndNotOnTheServersClassPath() {
        assertThatThrownBy(() -> TestingProvider.builder()
                        .backend(ExamplePlugin.NAME)
                        .noHttp()
                        .build())
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("--proxmox-backend: unknown backend \"example\" (found: ")
                .hasMessageContaining("fake")
                .hasMessageNotContaining("example,");
        assertThatThrownBy(() ->
                        Class.forName(ExamplePlugin.FACTORY, false, getClass().getClassLoader()))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void thePluginDirAddsToTheBuiltInBackends() throws Exception {
        Path plugins = ExamplePlugin.directory();

        BackendRegistry registry = BackendRegistry.discover(Optional.of(plugins));

        assertThat(registry.require("fake").origin()).isEqualTo(BackendRegistry.CLASS_PATH);
        assertThat(registry.require(ExamplePlugin.NAME).origin())
                .isEqualTo(plugins.resolve("backend-example").toString());
        assertThat(registry.require(ExamplePlugin.NAME).options())
                .extracting(o -> o.name())
                .containsExactly("state-file", "boot-delay");
    }
}
