package dev.bigfleet.proxmox.docs.reference;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * A picocli command as reference tables, read from its {@link CommandSpec} model: its positional
 * parameters, its options outside any group, then one table per argument group under the group's
 * heading. Hidden options are left out. Every option shown must have a description.
 */
final class CommandTables {
    private CommandTables() {}

    /** Appends the tables of {@code spec}'s options that {@code shown} accepts. */
    static void append(MarkdownPage page, CommandSpec spec, Predicate<OptionSpec> shown, int headingLevel) {
        MarkdownTable parameters = new MarkdownTable("Parameter", "Description");
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (!p.hidden()) {
                parameters.row(Markdown.code(p.paramLabel()), description(spec, p, p.paramLabel()));
            }
        }
        page.table(parameters);
        page.table(options(
                spec,
                spec.options().stream()
                        .filter(o -> o.group() == null)
                        .filter(shown)
                        .toList()));
        for (ArgGroupSpec group : spec.argGroups()) {
            page.heading(headingLevel, Markdown.text(heading(group)));
            page.table(options(spec, group.options().stream().filter(shown).toList()));
        }
    }

    /** Options that are shown: not hidden. */
    static boolean visible(OptionSpec option) {
        return !option.hidden();
    }

    static MarkdownTable options(CommandSpec spec, List<OptionSpec> options) {
        MarkdownTable table = new MarkdownTable("Flag", "Value", "Default", "Description");
        for (OptionSpec option : options) {
            table.row(
                    String.join(
                            ", ",
                            Arrays.stream(option.names()).map(Markdown::code).toList()),
                    value(option),
                    option.required() ? "required" : OptionDefault.markdown(option),
                    description(spec, option, option.longestName()));
        }
        return table;
    }

    /** What follows the flag: its parameter label, optional or repeatable as picocli parses it. */
    static String value(OptionSpec option) {
        if (option.arity().max() == 0) {
            return "";
        }
        boolean bool = option.type() == boolean.class || option.type() == Boolean.class;
        String label = bool && option.paramLabel().startsWith("<") ? "true|false" : option.paramLabel();
        if (option.splitRegex() != null && !option.splitRegex().isEmpty()) {
            String separator =
                    option.splitRegexSynopsisLabel().isEmpty() ? option.splitRegex() : option.splitRegexSynopsisLabel();
            label = label + "[" + separator + label + "...]";
        }
        if (option.arity().min() == 0) {
            label = "[" + label + "]";
        }
        String text = Markdown.code(label);
        return option.isMultiValue() ? text + " (repeatable)" : text;
    }

    static String description(CommandSpec command, ArgSpec arg, String name) {
        String text = String.join(" ", OptionDefault.asWritten(arg, arg::description))
                .replace("${DEFAULT-VALUE}", OptionDefault.plain(arg));
        if (text.isBlank()) {
            throw new IllegalStateException(
                    name + " of command " + command.qualifiedName() + " has no description; give it one in the code");
        }
        return Markdown.text(text);
    }

    private static String heading(ArgGroupSpec group) {
        String heading = Objects.requireNonNullElse(group.heading(), "")
                .replace("%n", "")
                .strip();
        if (heading.endsWith(":")) {
            heading = heading.substring(0, heading.length() - 1);
        }
        if (heading.isEmpty()) {
            heading = group.exclusive() ? "Mutually exclusive flags" : "Flags given together";
        }
        return heading;
    }
}
