package dev.bigfleet.proxmox.backend.proxmox.kube;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a kubeconfig could not be read, told without its content: YAML parsers quote the line they
 * stumbled on, and a kubeconfig's lines hold tokens and keys. Only the kind of problem and where it
 * is (line and column) are kept.
 */
final class YamlProblem {
    private static final Pattern LOCATION = Pattern.compile("line:? (\\d+), column:? (\\d+)");
    /** Jackson's path to the field it could not bind: {@code Config["clusters"]->...[0]}; names only. */
    private static final Pattern FIELD = Pattern.compile("\\[\"([A-Za-z0-9_.-]{1,64})\"\\]|\\[(\\d+)\\]");

    private YamlProblem() {}

    static String describe(Throwable failure) {
        Throwable deepest = failure;
        String where = "";
        for (Throwable t = failure; t != null; t = t.getCause()) {
            deepest = t;
            String message = String.valueOf(t.getMessage());
            Matcher m = LOCATION.matcher(message);
            if (m.find() && where.isEmpty()) {
                where = " at line " + m.group(1) + ", column " + m.group(2);
            }
            int chain = message.indexOf("reference chain:");
            if (chain >= 0 && where.isEmpty()) {
                where = path(message.substring(chain));
            }
            if (t.getCause() == t) {
                break;
            }
        }
        String kind = deepest.getClass().getSimpleName();
        return (kind.contains("Yaml") || kind.contains("Scanner") || kind.contains("Parser")
                        ? "not valid YAML"
                        : "not valid YAML for a kubeconfig")
                + " (" + kind + where + ")";
    }

    /** The field names of a reference chain, {@code at clusters[0].cluster}; empty when there are none. */
    private static String path(String chain) {
        StringBuilder path = new StringBuilder();
        Matcher m = FIELD.matcher(chain);
        while (m.find()) {
            if (m.group(1) != null) {
                path.append(path.length() == 0 ? "" : ".").append(m.group(1));
            } else {
                path.append('[').append(m.group(2)).append(']');
            }
        }
        return path.length() == 0 ? "" : " at " + path;
    }
}
