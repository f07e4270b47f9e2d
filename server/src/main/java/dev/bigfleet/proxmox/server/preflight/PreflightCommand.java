package dev.bigfleet.proxmox.server.preflight;

import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.server.cli.ConfigLoader;
import dev.bigfleet.proxmox.server.cli.ParsedCommandLine;
import dev.bigfleet.proxmox.server.cli.ProviderCommandLine;
import dev.bigfleet.proxmox.server.cli.ProviderConfigs;
import dev.bigfleet.proxmox.server.cli.UsageException;
import dev.bigfleet.proxmox.server.logging.LogSetup;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.PreflightReport;
import dev.bigfleet.proxmox.spi.PreflightRequest;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * {@code bigfleet-proxmox preflight [--live [--only TYPE@NODE,...]] [--output table|json]
 * <provider flags>}: reads the provider's flags and files exactly as a start does, then asks the
 * selected backend for its checks and prints the report. Exit 0 when every check passed, 1 when
 * one found a problem (or the backend could not even be asked), 2 for a usage mistake.
 */
public final class PreflightCommand {
    public static final String NAME = "preflight";
    public static final int EXIT_OK = 0;
    public static final int EXIT_PROBLEM = 1;
    public static final int EXIT_USAGE = 2;

    private PreflightCommand() {}

    /** The flags {@code preflight} adds to the provider's, as picocli models them (for the reference pages). */
    public static CommandLine.Model.CommandSpec commandSpec() {
        return new CommandLine(new PreflightFlags()).getCommandSpec();
    }

    /** Runs preflight on {@code args} (without the word {@code preflight}); returns the exit code. */
    public static int run(String version, PrintStream out, PrintStream err, String... args) {
        PreflightFlags flags = new PreflightFlags();
        CommandLine cli =
                new CommandLine(flags).setUnmatchedArgumentsAllowed(true).setUnmatchedOptionsArePositionalParams(true);
        try {
            cli.parseArgs(args);
        } catch (ParameterException e) {
            err.println("error: preflight: " + e.getMessage() + " (see preflight --help)");
            return EXIT_USAGE;
        }
        if (cli.isUsageHelpRequested()) {
            cli.usage(new PrintWriter(out, true, StandardCharsets.UTF_8));
            return EXIT_OK;
        }
        if (!flags.output.equals("table") && !flags.output.equals("json")) {
            err.println("error: --output: \"" + flags.output + "\" must be table or json");
            return EXIT_USAGE;
        }
        if (!flags.only.isEmpty() && !flags.live) {
            err.println("error: --only: chooses the pairs --live tries; give --live too");
            return EXIT_USAGE;
        }
        ProviderConfigs config;
        try {
            ParsedCommandLine command = ProviderCommandLine.parse(version, flags.providerArgs.toArray(new String[0]));
            LogSetup.apply(ConfigLoader.observability(command).logFormat());
            config = ConfigLoader.load(command);
        } catch (UsageException e) {
            return e.exitCode() == 0 ? EXIT_OK : EXIT_USAGE;
        } catch (ConfigException e) {
            err.println("error: " + e.getMessage());
            return EXIT_USAGE;
        }
        List<Offering> offerings = config.inventory().plan().offerings();
        Set<String> pairs = new LinkedHashSet<>();
        offerings.forEach(o -> pairs.add(o.instanceType() + "@" + o.zone()));
        for (String only : flags.only) {
            if (!pairs.contains(only.trim())) {
                err.println("error: --only: " + only + " is not an (instance type, node) pair of the offerings"
                        + " (they are: " + String.join(", ", new TreeSet<>(pairs)) + ")");
                return EXIT_USAGE;
            }
        }
        BackendContext context = new BackendContext(
                config.inventory().plan().providerLabel(),
                config.inventory().nodes(),
                config.inventory().plan().catalog(),
                offerings,
                config.backend().options());
        PreflightReport report;
        try {
            report = config.backend()
                    .backend()
                    .preflight(
                            context,
                            new PreflightRequest(
                                    flags.live,
                                    flags.only.stream().map(String::trim).toList()));
        } catch (UnsupportedOperationException e) {
            err.println("error: --proxmox-backend: " + e.getMessage());
            return EXIT_USAGE;
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return EXIT_USAGE;
        } catch (Exception e) {
            err.println("error: preflight failed: " + e.getMessage());
            return EXIT_PROBLEM;
        }
        out.print(
                flags.output.equals("json") ? PreflightReportWriter.json(report) : PreflightReportWriter.table(report));
        out.flush();
        return report.ok() ? EXIT_OK : EXIT_PROBLEM;
    }
}
