package com.example.bigfleet.backend;

import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.testkit.BackendFixture;
import dev.bigfleet.proxmox.spi.testkit.GuestFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The example as the provider builds it, through its factory and with a state file of its own, so
 * the contract also runs every change through the file. Scenes are set on its {@link ExampleNodes}.
 */
final class ExampleFixture implements BackendFixture {
    static final InstanceTypeCatalog CATALOG = InstanceTypeCatalog.builtIn(9000);
    static final InstanceType SMALL = CATALOG.find("pve.small").orElseThrow();
    static final List<String> NODES = List.of("node-a", "node-b");
    private static final String CLUSTER = "example-cluster";

    private final Path dir;
    private final Map<String, String> options = new LinkedHashMap<>();
    private ExampleNodes nodes;

    ExampleFixture() throws IOException {
        dir = Files.createTempDirectory("example-backend");
        options.put("state-file", dir.resolve("vms.json").toString());
        options.put("boot-delay", "5ms");
    }

    static BackendContext context(Map<String, String> options, ApiCallRecorder apiCalls) {
        return new BackendContext("proxmox", NODES, CATALOG, List.of(), BackendOptions.of(options), apiCalls);
    }

    @Override
    public ProxmoxBackend createBackend(ApiCallRecorder apiCalls) {
        ExampleBackend backend = (ExampleBackend) new ExampleBackendFactory().create(context(options, apiCalls));
        nodes = backend.substrate();
        return backend;
    }

    @Override
    public CloneSpec cloneSpec(String machineId) {
        return new CloneSpec(machineId, SMALL, NODES.get(0), Map.of());
    }

    @Override
    public void stopVm(CreatedVm vm) {
        nodes.setRunning(vm.vmid(), false);
    }

    @Override
    public boolean isRunning(CreatedVm vm) {
        return nodes.vm(vm.vmid()).map(ExampleVm::running).orElse(false);
    }

    @Override
    public boolean exists(CreatedVm vm) {
        return nodes.vm(vm.vmid()).isPresent();
    }

    @Override
    public GuestFailure failBootstrap(CreatedVm vm) {
        nodes.failBootstrapHook(vm.vmid(), 7);
        return new GuestFailure(CLUSTER, 7);
    }

    @Override
    public GuestFailure failDrain(CreatedVm vm) {
        nodes.failDrain(vm.vmid(), 4);
        return new GuestFailure(CLUSTER, 4);
    }

    /** A Create boots the clone, so a long boot delay makes it slow. */
    @Override
    public boolean slowDownCreates(Duration atLeast) {
        options.put("boot-delay", GoDuration.format(atLeast));
        return true;
    }

    @Override
    public void close() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }
}
