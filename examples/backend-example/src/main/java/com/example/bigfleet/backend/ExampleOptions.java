package com.example.bigfleet.backend;

import dev.bigfleet.proxmox.spi.BackendOption;
import java.util.List;

/**
 * The options the example backend reads. Operators set them with {@code --backend-opt NAME=VALUE}
 * or as keys of the {@code --backend-config} file; {@code --help} lists them under the backend.
 */
final class ExampleOptions {
    static final BackendOption STATE_FILE = BackendOption.named("state-file")
            .description("JSON file the VMs are kept in, so they survive a provider restart (empty: memory only).")
            .build();
    static final BackendOption BOOT_DELAY = BackendOption.named("boot-delay")
            .description("How long a VM takes to boot after it is started (Go duration, 0s = at once).")
            .defaultValue("200ms")
            .build();

    static final List<BackendOption> ALL = List.of(STATE_FILE, BOOT_DELAY);

    private ExampleOptions() {}
}
