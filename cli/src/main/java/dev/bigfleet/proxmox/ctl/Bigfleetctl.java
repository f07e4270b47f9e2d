package dev.bigfleet.proxmox.ctl;

import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code bigfleetctl}: the provider's six gRPC calls from a shell. Exit status 0 on success, 1 when
 * a call fails (the gRPC error as one line with its code) or a file cannot be read, 2 for a
 * malformed command line.
 */
@Command(
        name = "bigfleetctl",
        scope = CommandLine.ScopeType.INHERIT, // --help on every command
        mixinStandardHelpOptions = true,
        versionProvider = CtlVersion.class,
        description = "Calls a BigFleet capacity provider's CapacityProvider gRPC API.",
        subcommands = {
            ListCommand.class,
            GetCommand.class,
            CreateCommand.class,
            ConfigureCommand.class,
            DrainCommand.class,
            DeleteCommand.class
        },
        footer = {
            "",
            "Exit status: 0 on success, 1 when the call fails, 2 for a malformed command line.",
            "BIGFLEETCTL_ADDR sets the default of --addr.%n"
        })
public final class Bigfleetctl implements Runnable {
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;

    @Mixin
    CallOptions options;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(run(out, err, args));
    }

    /** Runs one command line, writing results to {@code out} and errors to {@code err}; returns the exit status. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new Bigfleetctl())
                .setOut(out)
                .setErr(err)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setParameterExceptionHandler((e, ignored) -> {
                    err.println("error: " + usageError(e) + " (see --help)");
                    return EXIT_USAGE;
                })
                .setExecutionExceptionHandler((e, command, parsed) -> {
                    err.println("error: " + failure(e));
                    return EXIT_FAILED;
                });
        int status = cli.execute(args);
        out.flush();
        err.flush();
        return status;
    }

    /**
     * One line for a malformed command line. An unknown option is named alone, never with the text
     * after it: that may be a secret meant for a misspelt option.
     */
    private static String usageError(CommandLine.ParameterException e) {
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched) {
            return unmatched.getUnmatched().stream()
                    .filter(a -> a.startsWith("-"))
                    .findFirst()
                    .map(a -> "unknown option " + (a.contains("=") ? a.substring(0, a.indexOf('=')) : a))
                    .orElse("unexpected argument \"" + unmatched.getUnmatched().get(0) + "\"");
        }
        return e.getMessage();
    }

    private static String failure(Exception e) {
        if (e instanceof StatusRuntimeException rpc) {
            return RpcErrors.oneLine(rpc);
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.replace('\n', ' ');
    }
}
