package dev.bigfleet.proxmox.docs.reference;

import dev.bigfleet.proxmox.server.plugin.BackendRegistry;
import dev.bigfleet.proxmox.server.plugin.LoadedBackend;
import dev.bigfleet.proxmox.spi.BackendOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code docs/reference/backend-options.md}: every option each built-in backend declares, and the
 * instance-type keys it reads, from the backends as the provider loads them (its {@link
 * BackendRegistry}, which finds them through {@code ServiceLoader}).
 */
final class BackendOptionsPage implements ReferencePage {
    @Override
    public Path file() {
        return Path.of("docs", "reference", "backend-options.md");
    }

    @Override
    public String render() throws Exception {
        MarkdownPage page = new MarkdownPage("Backend options");
        page.paragraph("The provider runs one backend, chosen with " + Markdown.code("--proxmox-backend NAME")
                + " (or " + Markdown.code("auto") + "). A backend's options are set with "
                + Markdown.code("--backend-opt KEY=VALUE") + ", as keys of the JSON object of "
                + Markdown.code("--backend-config FILE") + ", or with the option's flag; flags win over the file."
                + " A secret option's value is never logged, echoed or shown.");
        for (LoadedBackend backend : BackendRegistry.discover(Optional.empty()).all()) {
            page.heading(2, "Backend " + Markdown.code(backend.name()));
            page.paragraph(Markdown.text(capitalised(backend.description())));
            MarkdownTable table = new MarkdownTable("Key", "Flag", "Kind", "Default", "Secret", "Description");
            for (BackendOption option : backend.options()) {
                if (option.description().isBlank()) {
                    throw new IllegalStateException("option " + option.name() + " of backend " + backend.name()
                            + " has no description; give it one in the code");
                }
                table.row(
                        Markdown.code(option.name()),
                        String.join(
                                ", ",
                                option.flags().stream().map(Markdown::code).toList()),
                        kind(option),
                        option.defaultValue().map(Markdown::code).orElse(""),
                        option.secret() ? "yes" : "",
                        Markdown.text(option.description()));
            }
            page.table(table);
            if (!backend.instanceTypeSettings().isEmpty()) {
                page.heading(3, "Instance-type settings of " + Markdown.code(backend.name()));
                page.paragraph("Keys an entry of " + Markdown.code("--instance-types") + " may carry for this backend,"
                        + " beside " + Markdown.code("vcpu") + ", " + Markdown.code("memory_mib") + " and "
                        + Markdown.code("template_vmid") + ":");
                backend.instanceTypeSettings().forEach(key -> page.bullet(Markdown.code(key)));
            }
        }
        return page.render();
    }

    private static String kind(BackendOption option) {
        if (option.selectsBackend()) {
            return "switch, selects the backend";
        }
        return option.isSwitch() ? "switch" : "value";
    }

    private static String capitalised(String text) {
        if (text.isEmpty()) {
            return text;
        }
        String sentence = Character.toUpperCase(text.charAt(0)) + text.substring(1);
        return sentence.endsWith(".") ? sentence : sentence + ".";
    }
}
