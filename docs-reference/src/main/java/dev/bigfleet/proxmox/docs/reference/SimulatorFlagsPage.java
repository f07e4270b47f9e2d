package dev.bigfleet.proxmox.docs.reference;

import dev.bigfleet.proxmox.pvesim.PveSimulatorMain;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code docs/reference/simulator-flags.md}: every flag of {@code bin/pve-simulator}, the Proxmox
 * VE API simulator, from its picocli model.
 */
final class SimulatorFlagsPage implements ReferencePage {
    @Override
    public Path file() {
        return Path.of("docs", "reference", "simulator-flags.md");
    }

    @Override
    public String render() {
        CommandSpec spec = new CommandLine(new PveSimulatorMain()).getCommandSpec();
        MarkdownPage page = new MarkdownPage("Simulator flags: bin/pve-simulator");
        page.paragraph(Markdown.text(String.join(" ", spec.usageMessage().description())));
        page.paragraph(
                "Usage: " + Markdown.code("bin/pve-simulator --token USER@REALM!TOKENID=SECRET --tls-dir DIR [FLAGS]")
                        + ". What it models and what runs for real is in [the simulator's page](../developing/simulator.md).");
        page.heading(2, "Flags");
        CommandTables.append(page, spec, CommandTables::visible, 3);
        return page.render();
    }
}
