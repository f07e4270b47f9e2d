package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.engine.ClusterRebuild;
import dev.bigfleet.proxmox.engine.InventoryPlan;
import dev.bigfleet.proxmox.engine.LifecycleEngine;
import dev.bigfleet.proxmox.server.config.BackendConfig;
import dev.bigfleet.proxmox.server.config.RuntimeConfig;
import dev.bigfleet.proxmox.server.metrics.ReconcileMetrics;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** The header of the admin page: who is serving, since when, and whether the Proxmox API answers. */
public final class StatusView {
    private final InventoryPlan plan;
    private final String backendName;
    private final ProxmoxBackend backend;
    private final ReconcileMetrics reconciles;
    private final Duration reconcileInterval;
    private final LifecycleEngine engine;
    private final Clock clock;
    private final ClusterRebuild rebuild;
    /** When the JVM started: the process' start, which is what uptime means to an operator. */
    private final Instant startedAt =
            Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());

    @Inject
    public StatusView(
            InventoryPlan plan,
            BackendConfig backendConfig,
            ProxmoxBackend backend,
            ReconcileMetrics reconciles,
            RuntimeConfig runtime,
            LifecycleEngine engine,
            ClusterRebuild rebuild) {
        this(
                plan,
                backendConfig.name(),
                backend,
                reconciles,
                runtime.reconcileInterval(),
                engine,
                Clock.systemUTC(),
                rebuild);
    }

    StatusView(
            InventoryPlan plan,
            String backendName,
            ProxmoxBackend backend,
            ReconcileMetrics reconciles,
            Duration reconcileInterval,
            LifecycleEngine engine,
            Clock clock,
            ClusterRebuild rebuild) {
        this.plan = plan;
        this.backendName = backendName;
        this.backend = backend;
        this.reconciles = reconciles;
        this.reconcileInterval = reconcileInterval;
        this.engine = engine;
        this.clock = clock;
        this.rebuild = rebuild;
    }

    public ProviderStatus status() {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        ApiReachability api = backend.apiStatus()
                .map(s -> new ApiReachability(
                        s.reachable(), s.since().toString(), s.lastError().orElse(""), s.breakerOpen()))
                .orElse(null);
        return new ProviderStatus(
                plan.providerLabel(),
                backendName,
                version(),
                startedAt.toString(),
                now.toString(),
                Math.max(0, Duration.between(startedAt, now).toSeconds()),
                api,
                reconciles.lastSuccess().map(Instant::toString).orElse(null),
                reconcileInterval.isZero() ? null : reconcileInterval.toSeconds(),
                engine.failedNeedingAttention(),
                rebuild.lastReport().map(RebuildView::of).orElse(null));
    }

    /** The version in the provider jar's manifest; {@code dev} when running from a build's classes. */
    static String version() {
        String v = StatusView.class.getPackage().getImplementationVersion();
        return v == null || v.isBlank() ? "dev" : v;
    }
}
