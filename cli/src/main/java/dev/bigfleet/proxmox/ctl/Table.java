package dev.bigfleet.proxmox.ctl;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Rows of text printed in columns two spaces apart, each as wide as its widest cell. */
final class Table {
    private final List<List<String>> rows = new ArrayList<>();

    Table(String... header) {
        rows.add(List.of(header));
    }

    Table row(String... cells) {
        rows.add(List.of(cells));
        return this;
    }

    void print(PrintWriter out) {
        int columns = rows.get(0).size();
        int[] width = new int[columns];
        for (List<String> row : rows) {
            for (int c = 0; c < columns; c++) {
                width[c] = Math.max(width[c], row.get(c).length());
            }
        }
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                line.append(row.get(c));
                if (c < columns - 1) {
                    line.append(" ".repeat(width[c] - row.get(c).length() + 2));
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
