package dev.bigfleet.proxmox.docs.reference;

/**
 * Text made safe for a Markdown page as MkDocs (Python-Markdown with its tables extension) renders
 * it: inside a table cell a {@code |} would end the cell, {@code <...>} would be taken for HTML and
 * {@code *}, {@code _} or brackets for emphasis or links.
 */
final class Markdown {
    private Markdown() {}

    /** Plain text: every character that Markdown would interpret is escaped; line breaks become spaces. */
    static String text(String plain) {
        StringBuilder out = new StringBuilder(plain.length() + 8);
        for (char c : oneLine(plain).toCharArray()) {
            switch (c) {
                case '\\', '|', '*', '_', '`', '[', ']' -> out.append('\\').append(c);
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * A code span, for names typed as they are (flags, keys, metrics). Text holding a {@code |} or a
     * backtick is written as escaped plain text instead: in a table cell neither is safe in a span.
     */
    static String code(String literal) {
        String line = oneLine(literal);
        if (line.isEmpty()) {
            return "";
        }
        if (line.contains("|") || line.contains("`")) {
            return text(line);
        }
        return "`" + line + "`";
    }

    private static String oneLine(String s) {
        return s.replace("%n", " ").replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
