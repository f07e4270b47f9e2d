package dev.bigfleet.proxmox.server;

import com.google.inject.CreationException;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.ProvisionException;
import com.google.inject.Stage;
import com.google.inject.spi.Message;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.server.build.BuildInfo;
import dev.bigfleet.proxmox.server.cli.ConfigLoader;
import dev.bigfleet.proxmox.server.cli.ParsedCommandLine;
import dev.bigfleet.proxmox.server.cli.ProviderCommandLine;
import dev.bigfleet.proxmox.server.cli.ProviderConfigs;
import dev.bigfleet.proxmox.server.cli.UsageException;
import dev.bigfleet.proxmox.server.logging.LogSetup;
import dev.bigfleet.proxmox.server.preflight.PreflightCommand;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.server.startup.StartupException;
import dev.bigfleet.proxmox.server.wiring.AdminModule;
import dev.bigfleet.proxmox.server.wiring.BackendModule;
import dev.bigfleet.proxmox.server.wiring.Closeables;
import dev.bigfleet.proxmox.server.wiring.EngineModule;
import dev.bigfleet.proxmox.server.wiring.GrpcModule;
import dev.bigfleet.proxmox.server.wiring.HttpModule;
import dev.bigfleet.proxmox.server.wiring.MetricsModule;
import dev.bigfleet.proxmox.server.wiring.RuntimeModule;
import dev.bigfleet.proxmox.server.wiring.StoreModule;
import java.util.Arrays;
import java.util.Collection;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The entry point: parse flags, validate, wire with Guice, serve until SIGTERM or SIGINT, then stop
 * gracefully and exit 0. Every startup failure is one line on stderr and a non-zero exit.
 */
public final class ProviderMain {
    private static final Logger log = LoggerFactory.getLogger(ProviderMain.class);

    /** Exit code of an invalid configuration or a failed startup. */
    static final int EXIT_FAILURE = 1;

    private ProviderMain() {}

    public static void main(String[] args) {
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        if (args.length > 0 && args[0].equals(PreflightCommand.NAME)) {
            // no signal handlers: Ctrl-C runs the JVM's shutdown hooks, where preflight destroys what it made
            System.exit(
                    PreflightCommand.run(version(), System.out, System.err, Arrays.copyOfRange(args, 1, args.length)));
            return;
        }
        // handlers first, so a signal that arrives while starting still ends in a graceful stop
        CountDownLatch stop = new CountDownLatch(1);
        TerminationSignals.onTermination(stop::countDown);
        RunningProvider provider;
        try {
            provider = start(args);
        } catch (UsageException e) {
            System.exit(e.exitCode());
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
        ParsedCommandLine command = ProviderCommandLine.parse(version(), args);
        LogSetup.apply(ConfigLoader.observability(command).logFormat());
        ProviderConfigs config = ConfigLoader.load(command);
        Closeables closeables = new Closeables();
        ProviderRuntime runtime;
        try {
            // the store first: it reads its file on its own thread while the rest is wired
            Injector injector = Guice.createInjector(
                    Stage.PRODUCTION,
                    new RuntimeModule(config.runtime(), closeables),
                    new MetricsModule(),
                    new StoreModule(config.state()),
                    new EngineModule(
                            config.inventory(),
                            config.timeouts(),
                            config.orphans(),
                            config.recovery(),
                            config.fenceFloor()),
                    new BackendModule(config.backend()),
                    new GrpcModule(config.grpc()),
                    new HttpModule(config.http()),
                    new AdminModule(config.observability()));
            runtime = injector.getInstance(ProviderRuntime.class);
        } catch (CreationException e) {
            closeables.closeAll();
            throw startupFailure(e.getErrorMessages(), e);
        } catch (ProvisionException e) {
            closeables.closeAll();
            throw startupFailure(e.getErrorMessages(), e);
        }
        try {
            runtime.start();
        } catch (StartupException | RuntimeException e) {
            runtime.stop();
            throw e;
        }
        return new RunningProvider(runtime);
    }

    /** The one-line error a wiring failure stands for: the configuration or store error inside it. */
    private static ConfigException startupFailure(Collection<Message> messages, RuntimeException wiring)
            throws StartupException {
        for (Message m : messages) {
            Throwable cause = m.getCause();
            if (cause instanceof ConfigException config) {
                return config;
            }
            if (cause instanceof StoreException store) {
                throw new StartupException(store.getMessage(), store);
            }
        }
        throw wiring;
    }

    /** {@code --version}: the project version and the git commit, from the jar's manifest. */
    private static String version() {
        return BuildInfo.current().describe();
    }
}
