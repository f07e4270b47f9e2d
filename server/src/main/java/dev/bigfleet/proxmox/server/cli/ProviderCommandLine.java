package dev.bigfleet.proxmox.server.cli;

import dev.bigfleet.proxmox.server.config.NearestName;
import dev.bigfleet.proxmox.server.plugin.BackendRegistry;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Parses the provider's command line: the server's flags plus the flag aliases of every backend
 * found (on the class path and in {@code --plugin-dir}, which is therefore read first). Help and
 * version requests and malformed command lines end in a {@link UsageException}; a flag value that
 * does not convert is a {@link ConfigException} naming the flag.
 */
public final class ProviderCommandLine {
    static final int EXIT_USAGE = 2;
    private static final String BACKENDS_SECTION = "backends";

    private ProviderCommandLine() {}

    public static ParsedCommandLine parse(String version, String... args) throws UsageException, ConfigException {
        BackendRegistry backends = BackendRegistry.discover(pluginDir(args));
        ProviderFlags flags = new ProviderFlags();
        CommandLine cli = new CommandLine(flags).setUnmatchedArgumentsAllowed(false);
        BackendFlags backendFlags = new BackendFlags();
        backendFlags.register(cli.getCommandSpec(), backends.all());
        CommandLine.ParseResult result;
        try {
            result = cli.parseArgs(args);
        } catch (ParameterException e) {
            if (e.getCause() instanceof TypeConversionException conversion && e.getArgSpec() != null) {
                throw new ConfigException(name(e.getArgSpec()) + ": " + conversion.getMessage());
            }
            System.err.println(
                    "error: " + usageError(e, cli.getCommandSpec().optionsMap().keySet()) + " (see --help)");
            throw new UsageException(EXIT_USAGE);
        }
        if (cli.isUsageHelpRequested()) {
            cli.getHelpSectionMap().put(BACKENDS_SECTION, help -> BackendHelp.render(backends.all()));
            List<String> keys = new ArrayList<>(cli.getHelpSectionKeys());
            keys.add(keys.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST) + 1, BACKENDS_SECTION);
            cli.setHelpSectionKeys(keys);
            cli.usage(new PrintWriter(System.out, true, StandardCharsets.UTF_8));
            throw new UsageException(0);
        }
        if (cli.isVersionHelpRequested()) {
            System.out.println("bigfleet-proxmox " + version);
            throw new UsageException(0);
        }
        return new ParsedCommandLine(flags, backends, backendFlags.given(result));
    }

    /**
     * The command line {@link #parse} reads, as picocli models it (for the reference pages): the
     * server's flags and, hidden, the flag aliases of {@code backends}.
     *
     * @throws ConfigException when two backends, or a backend and the server, declare one flag
     */
    public static CommandLine.Model.CommandSpec commandSpec(BackendRegistry backends) throws ConfigException {
        CommandLine cli = new CommandLine(new ProviderFlags());
        new BackendFlags().register(cli.getCommandSpec(), backends.all());
        return cli.getCommandSpec();
    }

    /** {@code --plugin-dir} first, so the backends' flags are known before the real parse. */
    private static Optional<Path> pluginDir(String[] args) {
        PluginDirOnly only = new PluginDirOnly();
        new CommandLine(only)
                .setUnmatchedArgumentsAllowed(true)
                .setUnmatchedOptionsArePositionalParams(true)
                .parseArgs(args);
        return Optional.ofNullable(only.pluginDir);
    }

    /** The one flag read before the others. */
    @CommandLine.Command
    static final class PluginDirOnly {
        @CommandLine.Option(names = ProviderFlags.PLUGIN_DIR)
        Path pluginDir;

        @CommandLine.Parameters
        List<String> rest;
    }

    private static String name(ArgSpec spec) {
        return spec instanceof OptionSpec option ? option.longestName() : spec.paramLabel();
    }

    /**
     * One line for a malformed command line. An unknown flag is named with the nearest known one, and
     * never with the text after it: that may be a secret meant for a misspelt flag.
     */
    private static String usageError(ParameterException e, Set<String> flags) {
        if (e instanceof UnmatchedArgumentException unmatched) {
            List<String> args = unmatched.getUnmatched();
            Optional<String> flag = args.stream().filter(a -> a.startsWith("-")).findFirst();
            if (flag.isPresent()) {
                String typed = flag.get().contains("=")
                        ? flag.get().substring(0, flag.get().indexOf('='))
                        : flag.get();
                return "unknown flag " + typed
                        + NearestName.to(
                                        typed,
                                        flags.stream()
                                                .filter(f -> f.startsWith("--"))
                                                .toList())
                                .map(f -> " (did you mean " + f + "?)")
                                .orElse("");
            }
            return "unexpected argument \"" + args.get(0) + "\"";
        }
        return e.getMessage();
    }
}
