package dev.bigfleet.proxmox.server.preflight;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * The flags {@code preflight} adds to the provider's own: whether to try VMs live, which pairs,
 * and the report's format. Everything else on its command line is the provider's.
 */
@CommandLine.Command(
        name = "preflight",
        description = {
            "Checks the cluster as the provider would start on it, reporting every problem instead of"
                    + " stopping at the first.",
            "Takes every flag of the provider (see --help without preflight) plus the ones below."
        })
final class PreflightFlags {
    @CommandLine.Option(
            names = "--live",
            description = "Also try one VM per instance type and node: clone, start, the guest agent, the"
                    + " bootstrap, ready and drain hooks in their dry-run mode (BIGFLEET_PREFLIGHT=1),"
                    + " destroy.")
    boolean live;

    @CommandLine.Option(
            names = "--only",
            split = ",",
            paramLabel = "TYPE@NODE",
            description = "With --live: only these (instance type, node) pairs.")
    List<String> only = new ArrayList<>();

    @CommandLine.Option(
            names = "--output",
            paramLabel = "table|json",
            description = "The report's format (default: table).")
    String output = "table";

    @CommandLine.Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help and exit.")
    boolean help;

    /** The provider's flags, passed on as they are. */
    @CommandLine.Parameters(hidden = true)
    List<String> providerArgs = new ArrayList<>();
}
