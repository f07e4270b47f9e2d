package dev.bigfleet.proxmox.backend.fake;

import dev.bigfleet.proxmox.spi.BackendOption;
import java.util.List;

/** The fake's options, with the flags that set them since before backends had options of their own. */
final class FakeOptions {
    static final BackendOption USE = BackendOption.named("use")
            .description("Run on the in-memory fake backend, whatever --proxmox-backend says.")
            .selectsBackend()
            .flag("--use-fake-backend")
            .build();
    static final BackendOption LATENCY = BackendOption.named("latency")
            .description(
                    "Duration of each simulated step: clone, start, guest-agent boot, file write, exec (0s = instant).")
            .defaultValue("200ms")
            .flag("--fake-latency")
            .build();
    static final BackendOption FAULTS = BackendOption.named("faults")
            .description(
                    "Honour the conformance fault selectors (cluster ids fault-*, the create-fault offering label).")
            .asSwitch()
            .flag("--fake-faults")
            .build();

    static final List<BackendOption> ALL = List.of(USE, LATENCY, FAULTS);

    private FakeOptions() {}
}
