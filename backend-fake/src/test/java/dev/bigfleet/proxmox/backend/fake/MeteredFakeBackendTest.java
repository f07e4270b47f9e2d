package dev.bigfleet.proxmox.backend.fake;

import static dev.bigfleet.proxmox.backend.fake.Fixtures.backend;
import static dev.bigfleet.proxmox.backend.fake.Fixtures.bootstrap;
import static dev.bigfleet.proxmox.backend.fake.Fixtures.cloneSpec;
import static dev.bigfleet.proxmox.backend.fake.Fixtures.target;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.CreatedVm;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class MeteredFakeBackendTest {
    private final List<String> recorded = new CopyOnWriteArrayList<>();
    private final MeteredFakeBackend backend = new MeteredFakeBackend(
            backend(Duration.ZERO, true),
            (op, success, duration) -> recorded.add(op + "=" + (success ? "ok" : "error")));

    @Test
    void everySimulatedCallIsReportedUnderTheReferenceOperationNames() throws Exception {
        CreatedVm vm = backend.cloneAndStart(cloneSpec("m-1"), forMachine("m"));
        backend.applyBootstrap(bootstrap("m-1", vm, "c1"), forMachine("m"));
        backend.describeManaged();
        backend.destroy(target("m-1", vm), forMachine("m"));

        assertThat(recorded).containsExactly("CloneVM=ok", "Configure=ok", "DescribeManaged=ok", "DeleteVM=ok");
    }

    @Test
    void aFailedCallIsReportedAsAnError() throws Exception {
        CreatedVm vm = backend.cloneAndStart(cloneSpec("m-2"), forMachine("m"));
        assertThatThrownBy(() -> backend.applyBootstrap(bootstrap("m-2", vm, Fault.ERROR.clusterId()), forMachine("m")))
                .isInstanceOf(BackendException.class);

        assertThat(recorded).containsExactly("CloneVM=ok", "Configure=error");
    }
}
