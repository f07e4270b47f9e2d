package dev.bigfleet.proxmox.docs.reference;

import java.util.ArrayList;
import java.util.List;

/** A pipe table: a header row and rows of cells already written as Markdown (see {@link Markdown}). */
final class MarkdownTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    MarkdownTable(String... header) {
        this.header = List.of(header);
    }

    MarkdownTable row(String... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException(
                    "a row of " + cells.length + " cells in a table of " + header.size() + " columns");
        }
        rows.add(List.of(cells));
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    String render() {
        StringBuilder out = new StringBuilder();
        line(out, header);
        line(out, header.stream().map(h -> "---").toList());
        rows.forEach(r -> line(out, r));
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells) {
        out.append('|');
        for (String cell : cells) {
            out.append(' ').append(cell).append(" |");
        }
        out.append('\n');
    }
}
