package dev.bigfleet.proxmox.docs.reference;

/**
 * A generated page: its {@code # Title}, the line that says it is generated and how to regenerate
 * it, then headings, paragraphs, lists and tables, each block after one blank line.
 */
final class MarkdownPage {
    private final StringBuilder out = new StringBuilder();
    private boolean inList;

    MarkdownPage(String title) {
        out.append("# ").append(title).append('\n');
        paragraph("*Generated from the code: do not edit by hand. To regenerate every reference page, run* "
                + Markdown.code(ReferencePages.REGENERATE_COMMAND));
    }

    /** A heading of {@code level} (2 or more) holding Markdown text. */
    MarkdownPage heading(int level, String markdown) {
        return block("#".repeat(level) + " " + markdown + "\n");
    }

    MarkdownPage paragraph(String markdown) {
        return markdown.isBlank() ? this : block(markdown + "\n");
    }

    /** An item of a bulleted list; consecutive items make one list. */
    MarkdownPage bullet(String markdown) {
        if (!inList) {
            out.append('\n');
        }
        out.append("- ").append(markdown).append('\n');
        inList = true;
        return this;
    }

    MarkdownPage table(MarkdownTable table) {
        return table.isEmpty() ? this : block(table.render());
    }

    String render() {
        return out.toString();
    }

    private MarkdownPage block(String text) {
        out.append('\n').append(text);
        inList = false;
        return this;
    }
}
