package dev.bigfleet.proxmox.server.metrics;

import dev.bigfleet.proxmox.server.config.StateConfig;
import dev.bigfleet.proxmox.server.serving.ServingState;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the alert rules watch besides the provider's own work: whether it takes traffic (the flag
 * {@code /readyz} answers from) and how large its SQLite state file has grown, database and WAL
 * journal together. Without {@code --state} there is no file and no size series.
 */
@Singleton
public final class ServingMetrics {
    static final MetricFamily READY = MetricFamily.gauge(
            Families.PREFIX + "ready", "Whether the provider takes traffic: /readyz answers 200 (1) or 503 (0).");
    static final MetricFamily STATE_FILE_BYTES = MetricFamily.gauge(
            Families.PREFIX + "state_file_bytes", "Size of the SQLite state file and its WAL journal, in bytes.");

    @Inject
    public ServingMetrics(SeriesRegistry registry, ServingState serving, StateConfig state) {
        registry.gauge(READY, () -> serving.isReady() ? 1 : 0);
        state.path().ifPresent(file -> registry.gauge(STATE_FILE_BYTES, () -> size(file) + size(wal(file))));
    }

    private static Path wal(Path file) {
        return file.resolveSibling(file.getFileName() + "-wal");
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException absent) {
            return 0;
        }
    }
}
