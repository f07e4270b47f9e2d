package dev.bigfleet.proxmox.proto;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tables of {@code wire-contract.md} as data: the service's RPCs, the enums and the messages with
 * their fields ({@code name=number type}) and reserved numbers, as the specification writes them.
 */
record WireContractTable(
        Map<String, Rpc> rpcs, Map<String, Map<String, Integer>> enums, Map<String, MessageSpec> messages) {

    record Rpc(String name, String request, String response) {}

    /** A message: field name → "number type", and the reserved numbers. */
    record MessageSpec(Map<String, String> fields, TreeSet<Integer> reserved) {}

    private static final Pattern RPC_ROW = Pattern.compile("^\\| `(\\w+)` \\| `(\\w+)` \\| `(\\w+)` \\|");
    private static final Pattern ENUM =
            Pattern.compile("`(\\w+)`: ((?:\\w+=\\d+,?\\s*)+)\\((?:constants are )?spelled `(\\w+)<NAME>`\\)");
    private static final Pattern ENUM_VALUE = Pattern.compile("(\\w+)=(\\d+)");
    private static final Pattern MESSAGE = Pattern.compile("^- `(\\w+)`: (.*)$");
    private static final Pattern FIELD = Pattern.compile("^(\\w+)=(\\d+) (.+)$");
    private static final Pattern RESERVED = Pattern.compile("^\\*\\*reserved ([\\d, ]+)\\*\\*$");

    static WireContractTable parse(String markdown) {
        Map<String, Rpc> rpcs = new LinkedHashMap<>();
        for (String line : section(markdown, "## Service").split("\n", -1)) {
            Matcher m = RPC_ROW.matcher(line);
            if (m.find()) {
                rpcs.put(m.group(1), new Rpc(m.group(1), m.group(2), m.group(3)));
            }
        }
        Map<String, Map<String, Integer>> enums = new LinkedHashMap<>();
        Matcher e = ENUM.matcher(section(markdown, "## Enums").replace('\n', ' '));
        while (e.find()) {
            Map<String, Integer> values = new LinkedHashMap<>();
            Matcher v = ENUM_VALUE.matcher(e.group(2));
            while (v.find()) {
                values.put(e.group(3) + v.group(1), Integer.parseInt(v.group(2)));
            }
            enums.put(e.group(1), values);
        }
        Map<String, MessageSpec> messages = new LinkedHashMap<>();
        for (String entry : messageEntries(section(markdown, "## Messages"))) {
            Matcher m = MESSAGE.matcher(entry);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a message entry: " + entry);
            }
            Map<String, String> fields = new LinkedHashMap<>();
            TreeSet<Integer> reserved = new TreeSet<>();
            String body = m.group(2).endsWith(".")
                    ? m.group(2).substring(0, m.group(2).length() - 1)
                    : m.group(2);
            for (String part : body.split(";", -1)) {
                String p = part.trim();
                Matcher r = RESERVED.matcher(p);
                if (r.matches()) {
                    for (String n : r.group(1).split(",", -1)) {
                        reserved.add(Integer.parseInt(n.trim()));
                    }
                    continue;
                }
                Matcher f = FIELD.matcher(p);
                if (!f.matches()) {
                    throw new IllegalArgumentException("not a field of " + m.group(1) + ": " + p);
                }
                // a type may carry a note in parentheses, "map<string,string> (names → quantities)"
                String type = f.group(3).replaceAll("\\s*\\(.*\\)$", "").replace(" ", "");
                fields.put(f.group(1), f.group(2) + " " + type);
            }
            messages.put(m.group(1), new MessageSpec(fields, reserved));
        }
        return new WireContractTable(rpcs, enums, messages);
    }

    /** The text under a heading (which may go on after these words), up to the next heading of its level. */
    private static String section(String markdown, String heading) {
        int start = markdown.indexOf("\n" + heading);
        if (start < 0) {
            throw new IllegalArgumentException("no section " + heading);
        }
        int body = markdown.indexOf('\n', start + 1) + 1;
        int end = markdown.indexOf("\n## ", body);
        return markdown.substring(body, end < 0 ? markdown.length() : end);
    }

    /** The bulleted entries of a section, each joined onto one line. */
    private static List<String> messageEntries(String section) {
        List<String> entries = new ArrayList<>();
        for (String line : section.split("\n", -1)) {
            if (line.startsWith("- ")) {
                entries.add(line.trim());
            } else if (!line.isBlank() && !entries.isEmpty() && line.startsWith("  ")) {
                entries.set(entries.size() - 1, entries.get(entries.size() - 1) + " " + line.trim());
            }
        }
        return entries;
    }
}
