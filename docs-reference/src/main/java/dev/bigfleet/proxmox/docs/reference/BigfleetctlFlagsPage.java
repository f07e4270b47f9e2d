package dev.bigfleet.proxmox.docs.reference;

import dev.bigfleet.proxmox.ctl.Bigfleetctl;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code docs/reference/bigfleetctl-flags.md}: {@code bin/bigfleetctl}'s commands and flags from its
 * picocli model. Defaults are shown as declared, so an environment variable is named, never read.
 */
final class BigfleetctlFlagsPage implements ReferencePage {
    @Override
    public Path file() {
        return Path.of("docs", "reference", "bigfleetctl-flags.md");
    }

    @Override
    public String render() {
        CommandLine cli = new CommandLine(new Bigfleetctl());
        CommandSpec spec = cli.getCommandSpec();
        MarkdownPage page = new MarkdownPage("bigfleetctl commands and flags");
        page.paragraph(Markdown.text(String.join(" ", spec.usageMessage().description())));
        page.paragraph("Usage: " + Markdown.code("bin/bigfleetctl [GLOBAL FLAGS] COMMAND [FLAGS] [ARGS]")
                + "; the global flags may also follow the command.");
        page.paragraph(Markdown.text(String.join(" ", spec.usageMessage().footer())));

        page.heading(2, "Global flags");
        CommandTables.append(page, spec, CommandTables::visible, 3);

        page.heading(2, "Commands");
        MarkdownTable commands = new MarkdownTable("Command", "Description");
        for (Map.Entry<String, CommandLine> sub : spec.subcommands().entrySet()) {
            commands.row(
                    Markdown.code(sub.getKey()),
                    Markdown.text(String.join(
                            " ", sub.getValue().getCommandSpec().usageMessage().description())));
        }
        page.table(commands);

        for (Map.Entry<String, CommandLine> sub : spec.subcommands().entrySet()) {
            CommandSpec command = sub.getValue().getCommandSpec();
            page.heading(3, Markdown.code(spec.name() + " " + sub.getKey()));
            page.paragraph(Markdown.text(String.join(" ", command.usageMessage().description())));
            CommandTables.append(page, command, o -> CommandTables.visible(o) && !isGlobal(spec, o), 4);
        }
        return page.render();
    }

    /** A global flag, which every command takes too: listed once, above. */
    private static boolean isGlobal(CommandSpec top, OptionSpec option) {
        return option.inherited() || top.findOption(option.longestName()) != null;
    }
}
