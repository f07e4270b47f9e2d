package dev.bigfleet.proxmox.server;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.ProvisionException;
import dev.bigfleet.proxmox.server.backend.BackendLauncher;
import dev.bigfleet.proxmox.server.config.ConfigException;
import dev.bigfleet.proxmox.server.config.ConfigLoader;
import dev.bigfleet.proxmox.server.config.ObservabilitySettings;
import dev.bigfleet.proxmox.server.config.ProviderConfig;
import dev.bigfleet.proxmox.server.config.ProviderFlags;
import dev.bigfleet.proxmox.server.logging.LogSetup;
import dev.bigfleet.proxmox.server.metrics.MeteredStateStore;
import dev.bigfleet.proxmox.server.metrics.ProviderMetrics;
import dev.bigfleet.proxmox.server.wiring.AdminModule;
import dev.bigfleet.proxmox.server.wiring.BackendModule;
import dev.bigfleet.proxmox.server.wiring.ConfigModule;
import dev.bigfleet.proxmox.server.wiring.EngineModule;
import dev.bigfleet.proxmox.server.wiring.GrpcModule;
import dev.bigfleet.proxmox.server.wiring.HttpModule;
import dev.bigfleet.proxmox.server.wiring.MetricsModule;
import dev.bigfleet.proxmox.server.wiring.StoreModule;
import dev.bigfleet.proxmox.server.engine.InMemoryStateStore;
import dev.bigfleet.proxmox.server.engine.StateStore;
import dev.bigfleet.proxmox.server.engine.StoreException;
import dev.bigfleet.proxmox.server.store.SqliteStateStore;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import sun.misc.Signal;

/**
 * The entry point: parse flags, validate, wire with Guice, serve until SIGTERM or SIGINT, then stop
 * gracefully and exit 0. Every startup failure is one line on stderr and a non-zero exit.
 */
public final class ProviderMain {
    private static final Logger log = LoggerFactory.getLogger(ProviderMain.class);

    /** Exit code of a bad command line (unknown flag, missing value). */
    static final int EXIT_USAGE = 2;
    /** Exit code of an invalid configuration or a failed startup. */
    static final int EXIT_FAILURE = 1;

    private ProviderMain() {}

    public static void main(String[] args) {
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        // handlers first, so a signal that arrives while starting still ends in a graceful stop
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), s -> stop.countDown());
        Signal.handle(new Signal("INT"), s -> stop.countDown());
        RunningProvider provider;
        try {
            provider = start(args);
        } catch (UsageException e) {
            System.exit(e.exitCode);
            return;
        } catch (ConfigException | StartupException e) {
            System.err.println("error: " + e.getMessage());
            log.debug("startup failed", e);
            System.exit(EXIT_FAILURE);
            return;
        }
        try {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        provider.close();
        System.exit(0);
    }

    /**
     * Starts a provider from command-line arguments, exactly as {@code main} does, and returns once
     * it is serving. Tests use this to run the real wiring on ephemeral ports.
     */
    public static RunningProvider start(String... args) throws ConfigException, StartupException, UsageException {
        ProviderFlags flags = new ProviderFlags();
        CommandLine cli = new CommandLine(flags).setUnmatchedArgumentsAllowed(false);
        try {
            cli.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            System.err.println("error: " + e.getMessage() + " (see --help)");
            throw new UsageException(EXIT_USAGE);
        }
        if (cli.isUsageHelpRequested()) {
            cli.usage(new PrintWriter(System.out, true));
            throw new UsageException(0);
        }
        if (cli.isVersionHelpRequested()) {
            System.out.println("bigfleet-proxmox " + version());
            throw new UsageException(0);
        }
        ObservabilitySettings observability = ObservabilitySettings.from(flags);
        LogSetup.apply(observability.logFormat());
        ProviderConfig config = ConfigLoader.load(flags);
        ProviderMetrics metrics = ProviderMetrics.create();
        ProxmoxBackend backend = BackendLauncher.create(config, metrics.apiCalls());
        StateStore store;
        try {
            store = config.statePath().isPresent()
                    ? SqliteStateStore.open(config.statePath().get())
                    : new InMemoryStateStore();
        } catch (StoreException e) {
            backend.close();
            throw new StartupException(e.getMessage(), e);
        }
        try {
            Injector injector = Guice.createInjector(new ConfigModule(config), new BackendModule(backend),
                    new StoreModule(new MeteredStateStore(store, metrics.store())), new EngineModule(),
                    new GrpcModule(), new HttpModule(), new MetricsModule(metrics), new AdminModule(observability));
            ProviderRuntime runtime = injector.getInstance(ProviderRuntime.class);
            try {
                runtime.start();
            } catch (StartupException e) {
                runtime.stop();
                throw e;
            }
            return new RunningProvider(runtime);
        } catch (ProvisionException e) {
            store.close();
            backend.close();
            Throwable cause = e.getCause();
            if (cause instanceof ConfigException) {
                throw (ConfigException) cause;
            }
            throw e;
        } catch (StartupException | RuntimeException e) {
            store.close();
            backend.close();
            throw e;
        }
    }

    private static String version() {
        String v = ProviderMain.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    /** The command line asked for help or was malformed; carries the exit code. */
    public static final class UsageException extends Exception {
        final int exitCode;

        UsageException(int exitCode) {
            super("usage", null, false, false);
            this.exitCode = exitCode;
        }

        public int exitCode() {
            return exitCode;
        }
    }
}
