package dev.bigfleet.proxmox.server.preflight;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bigfleet.proxmox.spi.PreflightReport;
import dev.bigfleet.proxmox.spi.PreflightRow;
import dev.bigfleet.proxmox.spi.PreflightStep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A preflight report for people (a table, one row per instance type and node, then every problem
 * in its own words) or for automation (JSON: {@code ok}, {@code cluster}, {@code rows}).
 */
final class PreflightReportWriter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private PreflightReportWriter() {}

    static String table(PreflightReport report) {
        StringBuilder out = new StringBuilder();
        out.append("Cluster\n");
        for (PreflightStep s : report.cluster()) {
            out.append(String.format(Locale.ROOT, "  %-4s  %-11s  %s%n", mark(s), s.name(), s.detail()));
        }
        Set<String> columns = new LinkedHashSet<>();
        report.rows().forEach(r -> r.steps().forEach(s -> columns.add(s.name())));
        List<List<String>> cells = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("INSTANCE TYPE", "NODE"));
        columns.forEach(c -> header.add(c.toUpperCase(Locale.ROOT)));
        cells.add(header);
        for (PreflightRow r : report.rows()) {
            List<String> line = new ArrayList<>(List.of(r.instanceType(), r.node()));
            for (String c : columns) {
                line.add(r.step(c).map(PreflightReportWriter::cell).orElse(""));
            }
            cells.add(line);
        }
        out.append('\n');
        appendAligned(out, cells);
        List<String> problems = new ArrayList<>();
        for (PreflightStep s : report.cluster()) {
            if (s.failed()) {
                problems.add("cluster " + s.name() + ": " + s.detail());
            }
        }
        for (PreflightRow r : report.rows()) {
            for (PreflightStep s : r.steps()) {
                if (s.failed()
                        && !(s.name().equals("pve version") && report.cluster().contains(s))) {
                    problems.add(r.instanceType() + "@" + r.node() + " " + s.name() + ": " + s.detail());
                }
            }
        }
        out.append('\n');
        if (problems.isEmpty()) {
            long live = report.rows().stream()
                    .filter(r -> r.step("destroy").isPresent())
                    .count();
            out.append("All checks passed (")
                    .append(report.rows().size())
                    .append(report.rows().size() == 1 ? " pair" : " pairs")
                    .append(live > 0 ? ", " + live + " tried live; every VM made is gone" : "")
                    .append(").\n");
        } else {
            out.append("Problems:\n");
            problems.forEach(p -> out.append("  ").append(p).append('\n'));
        }
        return out.toString();
    }

    private static String mark(PreflightStep s) {
        return switch (s.outcome()) {
            case PASS -> "ok";
            case FAIL -> "FAIL";
            case SKIP -> "-";
        };
    }

    private static String cell(PreflightStep s) {
        String m = mark(s);
        return s.took().isPresent() && s.outcome() != PreflightStep.Outcome.SKIP
                ? m + " " + seconds(s.took().get())
                : m;
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1fs", d.toMillis() / 1000.0);
    }

    private static void appendAligned(StringBuilder out, List<List<String>> cells) {
        int n = cells.get(0).size();
        int[] width = new int[n];
        for (List<String> line : cells) {
            for (int i = 0; i < n; i++) {
                width[i] = Math.max(width[i], line.get(i).length());
            }
        }
        for (List<String> line : cells) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < n; i++) {
                b.append(line.get(i));
                if (i < n - 1) {
                    b.append(" ".repeat(width[i] - line.get(i).length() + 2));
                }
            }
            out.append(b.toString().stripTrailing()).append('\n');
        }
    }

    static String json(PreflightReport report) {
        ObjectNode root = JSON.createObjectNode();
        root.put("ok", report.ok());
        ArrayNode cluster = root.putArray("cluster");
        report.cluster().forEach(s -> cluster.add(step(s)));
        ArrayNode rows = root.putArray("rows");
        for (PreflightRow r : report.rows()) {
            ObjectNode row = rows.addObject();
            row.put("instance_type", r.instanceType());
            row.put("node", r.node());
            row.put("ok", r.ok());
            ArrayNode steps = row.putArray("steps");
            r.steps().forEach(s -> steps.add(step(s)));
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode step(PreflightStep s) {
        ObjectNode o = JSON.createObjectNode();
        o.put("name", s.name());
        o.put("outcome", s.outcome().name().toLowerCase(Locale.ROOT));
        o.put("detail", s.detail());
        s.took().ifPresent(d -> o.put("seconds", d.toMillis() / 1000.0));
        return o;
    }
}
