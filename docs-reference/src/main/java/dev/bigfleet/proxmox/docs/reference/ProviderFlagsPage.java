package dev.bigfleet.proxmox.docs.reference;

import dev.bigfleet.proxmox.server.cli.ProviderCommandLine;
import dev.bigfleet.proxmox.server.plugin.BackendRegistry;
import dev.bigfleet.proxmox.server.plugin.LoadedBackend;
import dev.bigfleet.proxmox.server.preflight.PreflightCommand;
import dev.bigfleet.proxmox.spi.BackendOption;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code docs/reference/provider-flags.md}: every flag of {@code bin/proxmox} from the command line
 * the provider parses (its picocli model, with the built-in backends' flag aliases), and the flags
 * of its {@code preflight} subcommand.
 */
final class ProviderFlagsPage implements ReferencePage {
    static final String COMMAND = "proxmox";

    @Override
    public Path file() {
        return Path.of("docs", "reference", "provider-flags.md");
    }

    @Override
    public String render() throws Exception {
        BackendRegistry backends = BackendRegistry.discover(Optional.empty());
        CommandSpec spec = ProviderCommandLine.commandSpec(backends);
        MarkdownPage page = new MarkdownPage("Provider flags: bin/proxmox");
        page.paragraph(Markdown.text(String.join(" ", spec.usageMessage().description())));
        page.paragraph("Usage: " + Markdown.code("bin/proxmox [FLAGS]") + " to serve, "
                + Markdown.code("bin/proxmox preflight [PREFLIGHT FLAGS] [FLAGS]") + " to check the cluster first."
                + " A flag's value follows it after a space or " + Markdown.code("=") + ".");

        page.heading(2, "Flags");
        CommandTables.append(page, spec, CommandTables::visible, 3);

        page.heading(2, "Backend flags");
        page.paragraph("Flag aliases of the built-in backends' options (see "
                + "[Backend options](backend-options.md)); each one sets its option of that backend only, like "
                + Markdown.code("--backend-opt KEY=VALUE") + ".");
        MarkdownTable aliases = new MarkdownTable("Flag", "Value", "Backend", "Option", "Description");
        for (LoadedBackend backend : backends.all()) {
            for (BackendOption option : backend.options()) {
                for (String flag : option.flags()) {
                    OptionSpec parsed = spec.findOption(flag);
                    if (parsed == null) {
                        throw new IllegalStateException(
                                flag + " of backend " + backend.name() + " is not on the" + " provider's command line");
                    }
                    aliases.row(
                            Markdown.code(flag),
                            CommandTables.value(parsed),
                            Markdown.code(backend.name()),
                            Markdown.code(option.name()),
                            Markdown.text(option.description()));
                }
            }
        }
        page.table(aliases);

        CommandSpec preflight = PreflightCommand.commandSpec();
        page.heading(2, "Subcommand " + Markdown.code(COMMAND + " " + preflight.name()));
        page.paragraph(Markdown.text(String.join(" ", preflight.usageMessage().description())));
        CommandTables.append(page, preflight, CommandTables::visible, 3);
        return page.render();
    }
}
