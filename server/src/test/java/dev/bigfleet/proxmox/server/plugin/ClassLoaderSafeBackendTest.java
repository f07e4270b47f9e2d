package dev.bigfleet.proxmox.server.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.spi.ApiStatus;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.OperationContext;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ReadinessGate;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.spi.testkit.TestOperationContext;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A plugin's backend keeps every capability through the wrapper the host puts around it, and every
 * call runs with the plugin's class loader as the thread's context class loader.
 */
class ClassLoaderSafeBackendTest {
    /** Records the context class loader of every call it gets. */
    private static final class Recording implements ProxmoxBackend {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final List<ClassLoader> loaders = new CopyOnWriteArrayList<>();

        private void seen(String call) {
            calls.add(call);
            loaders.add(Thread.currentThread().getContextClassLoader());
        }

        @Override
        public CreatedVm cloneAndStart(CloneSpec spec, OperationContext context) {
            seen("cloneAndStart");
            return new CreatedVm("n1", 101);
        }

        @Override
        public void ensureRunning(VmTarget target, OperationContext context) {
            seen("ensureRunning");
        }

        @Override
        public void applyBootstrap(BootstrapSpec spec, OperationContext context) {
            seen("applyBootstrap");
        }

        @Override
        public void drain(DrainSpec spec, OperationContext context) {
            seen("drain");
        }

        @Override
        public void destroy(VmTarget target, OperationContext context) {
            seen("destroy");
        }

        @Override
        public List<ManagedVm> describeManaged() {
            seen("describeManaged");
            return List.of();
        }

        @Override
        public List<NodeStatus> nodes() {
            seen("nodes");
            return List.of();
        }

        @Override
        public Optional<ReadinessGate> readiness() {
            seen("readiness");
            return Optional.of((target, cluster, context) -> seen("awaitNodeReady"));
        }

        @Override
        public Optional<ApiStatus> apiStatus() {
            seen("apiStatus");
            return Optional.of(new ApiStatus(false, Instant.EPOCH, Optional.of("connection refused"), true));
        }

        @Override
        public void close() {
            seen("close");
        }
    }

    @Test
    void everyCallAndCapabilityReachesThePluginInItsOwnContextClassLoader() throws Exception {
        Recording plugin = new Recording();
        try (URLClassLoader pluginLoader = new URLClassLoader("plugin", new URL[0], null)) {
            ProxmoxBackend wrapped = new ClassLoaderSafeBackend(plugin, pluginLoader);
            OperationContext context = TestOperationContext.forMachine("m-1");
            VmTarget target = new VmTarget("m-1", "n1", 101);
            wrapped.cloneAndStart(
                    new CloneSpec(
                            "m-1",
                            InstanceTypeCatalog.builtIn(9000).find("pve.small").orElseThrow(),
                            "n1",
                            Map.of()),
                    context);
            wrapped.ensureRunning(target, context);
            wrapped.applyBootstrap(new BootstrapSpec(target, "c1", new byte[] {1}), context);
            wrapped.readiness().orElseThrow().awaitNodeReady(target, "c1", context);
            wrapped.drain(new DrainSpec(target, "c1", 30), context);
            wrapped.destroy(target, context);
            wrapped.describeManaged();
            wrapped.nodes();
            assertThat(wrapped.apiStatus())
                    .hasValueSatisfying(s -> assertThat(s.breakerOpen()).isTrue());
            wrapped.close();

            assertThat(plugin.calls)
                    .containsExactly(
                            "cloneAndStart",
                            "ensureRunning",
                            "applyBootstrap",
                            "readiness",
                            "awaitNodeReady",
                            "drain",
                            "destroy",
                            "describeManaged",
                            "nodes",
                            "apiStatus",
                            "close");
            assertThat(plugin.loaders).allMatch(l -> l == pluginLoader);
        }
        assertThat(Thread.currentThread().getContextClassLoader()).isNotInstanceOf(URLClassLoader.class);
    }

    /** A new SPI method, capabilities included, must be forwarded: a default one would hide the plugin's. */
    @Test
    void theWrapperOverridesEveryMethodOfTheSpi() {
        for (Method m : ProxmoxBackend.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            assertThat(declares(ClassLoaderSafeBackend.class, m))
                    .as("ClassLoaderSafeBackend forwards %s", m.getName())
                    .isTrue();
        }
    }

    private static boolean declares(Class<?> type, Method m) {
        try {
            return type.getDeclaredMethod(m.getName(), m.getParameterTypes()).getDeclaringClass() == type;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
