package dev.bigfleet.proxmox.backend.proxmox;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The command lines run in the guest besides the operator's bootstrap hook. Paths are always
 * absolute (so never read as options) and single-quoted into the scripts, so no path can inject
 * shell syntax.
 */
final class GuestScripts {
    private GuestScripts() {}

    /** The exit code of {@link #prepare} when an entry is in the way of a file (see there). */
    static final int IN_THE_WAY = 3;

    /**
     * Makes each file ready for the agent to write into: an empty regular file of the agent's user,
     * mode 0600. The agent creates new files world-readable, but rewriting an existing file keeps
     * its mode, so the secret is never readable by anyone but root.
     *
     * <p>Safe to send again when its answer was lost, even if the first request is carried out
     * later (after the blob was written): it never removes, truncates or rewrites anything. An
     * absent file is created with an exclusive create ({@code set -C}: the shell's {@code O_EXCL}
     * open, which fails on a file that exists); one already there is accepted as it is only when it
     * is ready (made by an earlier send of this same script). Anything else in the way (another
     * mode, owner or type, or content: a file a crashed Configure left, or one written without
     * {@code prepare}) makes it exit {@link #IN_THE_WAY}, touching nothing: removing it is a
     * separate command, sent only once.
     */
    static List<String> prepare(List<String> files) {
        String script = "umask 077; ready() { "
                + "if [ ! -e \"$1\" ] && [ ! -h \"$1\" ] && (set -C; : > \"$1\") 2>/dev/null; then return 0; fi; "
                + "if [ ! -e \"$1\" ] && [ ! -h \"$1\" ]; then (set -C; : > \"$1\"); return; fi; "
                + "set -- $(ls -ldn -- \"$1\"); "
                + "case \"$1\" in -rw-------|-rw-------.) ;; *) return " + IN_THE_WAY + ";; esac; "
                + "[ \"$3\" = \"$(id -u)\" ] && [ \"$5\" = 0 ] || return " + IN_THE_WAY + "; }; "
                + files.stream().map(f -> "ready " + quote(f) + " || exit").collect(Collectors.joining("; "));
        return List.of("/bin/sh", "-c", script);
    }

    /** Concatenates the parts into {@code path} (created 0600) and removes the parts. */
    static List<String> assemble(String path, List<String> parts) {
        String list = parts.stream().map(GuestScripts::quote).collect(Collectors.joining(" "));
        String script =
                "umask 077 && rm -f " + quote(path) + " && cat " + list + " > " + quote(path) + " && rm -f " + list;
        return List.of("/bin/sh", "-c", script);
    }

    static List<String> remove(List<String> files) {
        List<String> argv = new ArrayList<>(List.of("rm", "-f"));
        argv.addAll(files);
        return argv;
    }

    /**
     * {@code kubectl drain} of the guest's own node, bounded by the grace period, its exit code
     * propagated; or the operator's drain hook ({@code --drain-exec}) with that bound appended.
     * kubectl reads {@code --timeout=0s} as "forever", so the bound is at least 1 s.
     */
    static List<String> drain(long gracePeriodSeconds, List<String> drainExec) {
        long timeout = Math.max(1, gracePeriodSeconds);
        if (!drainExec.isEmpty()) {
            List<String> argv = new ArrayList<>(drainExec);
            argv.add(Long.toString(timeout));
            return argv;
        }
        return List.of(
                "/bin/sh",
                "-c",
                "kubectl drain \"$(hostname)\" --ignore-daemonsets --delete-emptydir-data" + " --timeout=" + timeout
                        + "s");
    }

    /** The hook: {@code --bootstrap-exec} parts, then the blob's path. */
    static List<String> hook(List<String> bootstrapExec, String path) {
        List<String> argv = new ArrayList<>(bootstrapExec);
        argv.add(path);
        return argv;
    }

    /** POSIX single quoting: {@code '} becomes {@code '\''}. */
    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
