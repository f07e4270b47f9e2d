package dev.bigfleet.proxmox.server;

import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.engine.Interruption;
import dev.bigfleet.proxmox.engine.InventoryPlan;
import dev.bigfleet.proxmox.engine.LifecycleEngine;
import dev.bigfleet.proxmox.engine.Reconciler;
import dev.bigfleet.proxmox.engine.RecoveryPolicy;
import dev.bigfleet.proxmox.engine.store.SharedStateStore;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.server.config.BackendConfig;
import dev.bigfleet.proxmox.server.config.GrpcConfig;
import dev.bigfleet.proxmox.server.config.HttpConfig;
import dev.bigfleet.proxmox.server.config.RuntimeConfig;
import dev.bigfleet.proxmox.server.config.StateConfig;
import dev.bigfleet.proxmox.server.http.HttpServer;
import dev.bigfleet.proxmox.server.metrics.ReconcileMetrics;
import dev.bigfleet.proxmox.server.serving.ServingState;
import dev.bigfleet.proxmox.server.startup.ErrorMessages;
import dev.bigfleet.proxmox.server.startup.StartupException;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import io.grpc.Server;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Starts and stops the wired provider in order: probes first (answering "not ready"), then the
 * inventory seed, gRPC, the reconcile loop, and only then ready. A replica on a shared store starts
 * gRPC as a standby instead and leaves leading to its {@link ReplicaCoordinator}; the reconcile
 * loop and FAILED cleanups run only while it leads. Stopping reverses it, keeping the probes up
 * until gRPC has drained.
 */
public final class ProviderRuntime {
    private static final Logger log = LoggerFactory.getLogger(ProviderRuntime.class);

    private final RuntimeConfig runtime;
    private final GrpcConfig grpcConfig;
    private final HttpConfig httpConfig;
    private final StateConfig stateConfig;
    private final InventoryPlan plan;
    private final BackendConfig backendConfig;
    private final LifecycleEngine engine;
    private final InventoryLoader inventory;
    private final Optional<ReplicaCoordinator> replica;
    private final Reconciler reconciler;
    private final ProxmoxBackend backend;
    private final Server grpc;
    private final Optional<HttpServer> http;
    private final ServingState serving;
    private final ExecutorService transitionWorkers;
    private final StateStore store;
    private final ReconcileMetrics reconciles;
    private final RecoveryPolicy recoveryPolicy;
    private final ScheduledExecutorService reconcileTimer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "reconcile");
        t.setDaemon(true);
        return t;
    });

    @Inject
    public ProviderRuntime(
            RuntimeConfig runtime,
            GrpcConfig grpcConfig,
            HttpConfig httpConfig,
            StateConfig stateConfig,
            InventoryPlan plan,
            BackendConfig backendConfig,
            LifecycleEngine engine,
            InventoryLoader inventory,
            Optional<SharedStateStore> shared,
            Reconciler reconciler,
            ProxmoxBackend backend,
            Server grpc,
            Optional<HttpServer> http,
            ServingState serving,
            @Named(LifecycleEngine.TRANSITION_WORKERS) ExecutorService transitionWorkers,
            StateStore store,
            ReconcileMetrics reconciles,
            RecoveryPolicy recoveryPolicy) {
        this.runtime = runtime;
        this.grpcConfig = grpcConfig;
        this.httpConfig = httpConfig;
        this.stateConfig = stateConfig;
        this.plan = plan;
        this.backendConfig = backendConfig;
        this.engine = engine;
        this.inventory = inventory;
        this.reconciler = reconciler;
        this.backend = backend;
        this.grpc = grpc;
        this.http = http;
        this.serving = serving;
        this.transitionWorkers = transitionWorkers;
        this.store = store;
        this.reconciles = reconciles;
        this.recoveryPolicy = recoveryPolicy;
        this.replica = shared.map(s -> new ReplicaCoordinator(
                s, engine, inventory, serving, stateConfig.shared().orElseThrow(), this::startedLeading));
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // the reconcile loop catches everything itself and stops with its timer
    public void start() throws StartupException {
        // the HTTP server (probes answering "not ready" meanwhile) starts alongside the inventory load
        CompletableFuture<Void> httpStarted = startHttpInBackground();
        boolean restarted;
        try {
            restarted = inventory.restore().isPresent();
            if (replica.isEmpty()) {
                inventory.prepare(Interruption.RESTART);
            }
        } catch (StartupException e) {
            httpStarted.exceptionally(ignored -> null).join(); // stop() must not race a starting server
            throw e;
        }
        awaitHttp(httpStarted);
        try {
            grpc.start();
        } catch (IOException e) {
            throw new StartupException(
                    "--addr " + grpcConfig.address() + ": cannot listen: " + ErrorMessages.rootCause(e), e);
        }
        if (backend.readiness().isEmpty()) {
            log.warn(
                    "backend \"{}\" has no node readiness check: a machine is reported CONFIGURED as soon as"
                            + " its bootstrap hook succeeds (on the real backend: --ready-exec none)",
                    backendConfig.name());
        }
        long interval = runtime.reconcileInterval().toMillis();
        if (interval > 0) {
            reconcileTimer.scheduleWithFixedDelay(this::reconcileQuietly, interval, interval, TimeUnit.MILLISECONDS);
        }
        if (recoveryPolicy.enabled()) {
            long every = recoveryPolicy.checkInterval().toMillis();
            reconcileTimer.scheduleWithFixedDelay(this::cleanUpFailedQuietly, every, every, TimeUnit.MILLISECONDS);
        }
        if (replica.isEmpty()) {
            serving.markReady();
            if (restarted) {
                startedLeading(true);
            }
        }
        logServing();
        // after the line above: a replica logs "leading" once it takes over
        replica.ifPresent(r -> r.start(replicaName()));
    }

    private void logServing() {
        // key-value pairs, so --log-format json carries them as fields
        LoggingEventBuilder line = log.atInfo()
                .addKeyValue(
                        "addr",
                        grpcPort() < 0
                                ? grpcConfig.address()
                                : grpcConfig.address().host() + ":" + grpcPort())
                .addKeyValue("provider", plan.providerLabel())
                .addKeyValue("proxmox_backend", backendConfig.name())
                .addKeyValue("security", grpcConfig.security());
        if (grpcConfig.mutualTls()) {
            line = line.addKeyValue(
                    "unnamed_clients", grpcConfig.unnamedClients().flagValue());
        }
        line.addKeyValue("offerings", plan.offerings().size())
                .addKeyValue(
                        "zones",
                        String.join(
                                ",",
                                new TreeSet<>(plan.offerings().stream()
                                        .map(o -> o.zone())
                                        .toList())))
                .addKeyValue("machines", engine.size())
                .addKeyValue("state", stateConfig.describe())
                .addKeyValue(
                        "metrics_addr",
                        http.map(h -> httpConfig.address().get().host() + ":" + h.port())
                                .orElse("off"))
                .addKeyValue("metrics_security", httpConfig.security())
                .addKeyValue("reconcile_interval", GoDuration.format(runtime.reconcileInterval()))
                .addKeyValue("role", replica.isPresent() ? "standby" : "leader")
                .log("serving CapacityProvider");
    }

    /** Runs once this process leads: one reconcile pass right away catches what changed meanwhile. */
    @SuppressWarnings("FutureReturnValueIgnored") // the pass catches everything itself
    private void startedLeading(boolean fromStore) {
        if (fromStore) {
            // it runs after ready, so a slow backend does not hold back the restart or the takeover
            reconcileTimer.execute(this::reconcileQuietly);
        }
    }

    /** How callers and the other replicas name this one: its host name and gRPC port. */
    private String replicaName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = grpcConfig.address().host().isEmpty()
                    ? "localhost"
                    : grpcConfig.address().host();
        }
        return host + ":" + grpcPort();
    }

    /** Binds the HTTP port now and starts serving on it from another thread. */
    private CompletableFuture<Void> startHttpInBackground() throws StartupException {
        if (http.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        try {
            http.get().bind();
        } catch (IOException e) {
            throw httpFailure(e);
        }
        CompletableFuture<Void> started = new CompletableFuture<>();
        Thread starter = new Thread(
                () -> {
                    try {
                        http.get().start();
                        started.complete(null);
                    } catch (Exception e) {
                        started.completeExceptionally(httpFailure(e));
                    }
                },
                "http-start");
        starter.setDaemon(true);
        starter.start();
        return started;
    }

    private StartupException httpFailure(Exception e) {
        return new StartupException(
                "--metrics-addr " + httpConfig.address().get() + ": cannot serve HTTP: " + ErrorMessages.rootCause(e),
                e);
    }

    private static void awaitHttp(CompletableFuture<Void> started) throws StartupException {
        try {
            started.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof StartupException failed) {
                throw failed;
            }
            throw e;
        }
    }

    private void cleanUpFailedQuietly() {
        if (!serving.leadership().leads()) {
            return;
        }
        try {
            engine.cleanUpFailedMachines();
        } catch (RuntimeException e) {
            log.warn("looking for FAILED machines to clean up failed: {}", ErrorMessages.rootCause(e));
        }
    }

    private void reconcileQuietly() {
        if (!serving.leadership().leads()) {
            return; // a standby leaves the substrate to the leader
        }
        try {
            reconciler.runOnce();
            reconciles.finished(true);
        } catch (Throwable e) {
            reconciles.finished(false);
            log.warn("reconcile failed: {}", ErrorMessages.rootCause(e));
        }
    }

    public int grpcPort() {
        return grpc.getPort();
    }

    public Optional<Integer> httpPort() {
        return http.map(HttpServer::port);
    }

    /** Graceful stop: not ready, drain gRPC within the grace, then HTTP, workers and backend. */
    public void stop() {
        log.info("shutting down");
        serving.markNotReady();
        reconcileTimer.shutdownNow();
        grpc.shutdown();
        try {
            if (!grpc.awaitTermination(runtime.shutdownGrace().toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn(
                        "in-flight RPCs did not finish within {}; cancelling them",
                        GoDuration.format(runtime.shutdownGrace()));
                grpc.shutdownNow();
                grpc.awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            grpc.shutdownNow();
            Thread.currentThread().interrupt();
        }
        transitionWorkers.shutdownNow();
        replica.ifPresent(ReplicaCoordinator::stop);
        store.close();
        if (http.isPresent()) {
            try {
                http.get().stop();
            } catch (Exception e) {
                log.warn("stopping the HTTP server failed: {}", ErrorMessages.rootCause(e));
            }
        }
        backend.close();
    }
}
