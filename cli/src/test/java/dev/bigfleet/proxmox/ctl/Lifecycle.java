package dev.bigfleet.proxmox.ctl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;

/** Create, Configure, Drain and Delete of one machine, each through bigfleetctl and waited for with its get. */
final class Lifecycle {
    private Lifecycle() {}

    static void drive(Ctl ctl, String id, Path blob, Duration timeout) {
        Ctl.Result create = ctl.run("create", id);
        assertThat(create.exit()).as(create.err()).isZero();
        assertThat(create.lines().get(0)).matches("OPERATION +MACHINE +STATE");
        assertThat(create.lines().get(1)).matches("\\S+ +" + java.util.regex.Pattern.quote(id) + " +CREATING");
        awaitState(ctl, id, "IDLE", timeout);

        Ctl.Result configure = ctl.run(
                "configure",
                id,
                "--cluster-id",
                "prod-1",
                "--metadata",
                "pool=general",
                "--blob-file",
                blob.toString());
        assertThat(configure.exit()).as(configure.err()).isZero();
        assertThat(configure.out()).contains("CONFIGURING");
        awaitState(ctl, id, "CONFIGURED", timeout);
        Ctl.Result configured = ctl.run("get", id);
        assertThat(configured.out()).containsPattern("cluster +prod-1").containsPattern("shard_metadata +pool=general");

        Ctl.Result drain = ctl.run("drain", id, "--grace", "5s");
        assertThat(drain.exit()).as(drain.err()).isZero();
        assertThat(drain.out()).contains("DRAINING");
        awaitState(ctl, id, "IDLE", timeout);

        Ctl.Result delete = ctl.run("delete", id);
        assertThat(delete.exit()).as(delete.err()).isZero();
        assertThat(delete.out()).contains("DELETING");
        awaitState(ctl, id, "SPECULATIVE", timeout);
    }

    static void awaitState(Ctl ctl, String id, String state, Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            Ctl.Result get = ctl.run("get", id);
            assertThat(get.exit()).as(get.err()).isZero();
            assertThat(get.out()).containsPattern("(?m)^state +" + state + "$");
        });
    }
}
