package com.example.bigfleet.backend;

import dev.bigfleet.proxmox.spi.BackendOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The example's settings, read from its options. Errors name the option as the operator set it
 * ({@link BackendOptions#where}), on one line.
 *
 * @param stateFile where the VMs are kept across restarts; empty keeps them in memory only
 * @param bootDelay how long a started VM takes to boot
 */
record ExampleSettings(Optional<Path> stateFile, Duration bootDelay) {
    ExampleSettings {
        Objects.requireNonNull(stateFile, "stateFile");
        Objects.requireNonNull(bootDelay, "bootDelay");
    }

    /** @throws IllegalArgumentException naming the bad option */
    static ExampleSettings from(BackendOptions options) {
        Duration bootDelay = options.duration(ExampleOptions.BOOT_DELAY);
        if (bootDelay.isNegative()) {
            throw new IllegalArgumentException(options.where(ExampleOptions.BOOT_DELAY) + ": must not be negative");
        }
        Optional<Path> stateFile = options.get(ExampleOptions.STATE_FILE).map(String::trim).map(Path::of);
        if (stateFile.isPresent() && Files.isDirectory(stateFile.get())) {
            throw new IllegalArgumentException(options.where(ExampleOptions.STATE_FILE) + ": " + stateFile.get()
                    + " is a directory, not a file");
        }
        return new ExampleSettings(stateFile, bootDelay);
    }
}
