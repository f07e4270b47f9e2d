package dev.bigfleet.proxmox.pvesim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a script comes to run in the built-in guest: {@code sh -c SCRIPT [NAME ARGS]}, {@code sh}
 * reading standard input, {@code sh FILE ARGS}, or an executable file run by its path. Only a file
 * that starts with {@code #!} is read as a script; another file given to {@code sh} (a bootstrap
 * blob, say) succeeds when it exists.
 */
final class ShellInvocation {
    private ShellInvocation() {}

    /** {@code /path/to/script ARGS}: an executable file that starts with {@code #!} runs as a script. */
    static GuestShell.Outcome byPath(GuestShell sh, String prog, List<String> args, byte[] input) {
        Optional<GuestFile> f = prog.startsWith("/") ? sh.fs.file(prog) : Optional.empty();
        if (f.isEmpty() || !f.get().text().startsWith("#!")) {
            return GuestShell.Outcome.of(0, "", "");
        }
        if ((f.get().mode() & 0111) == 0) {
            return GuestShell.Outcome.of(126, "", "sh: 1: " + prog + ": Permission denied\n");
        }
        return sh.script(f.get().text(), GuestCommands.in(sh, input), parameters(prog, args));
    }

    private static List<String> parameters(String zero, List<String> rest) {
        List<String> all = new ArrayList<>(List.of(zero));
        all.addAll(rest);
        return all;
    }

    static GuestShell.Outcome shell(GuestShell sh, String name, List<String> args, byte[] input) {
        int i = 0;
        while (i < args.size() && args.get(i).startsWith("-")) {
            if (args.get(i).contains("c")) {
                if (i + 1 >= args.size()) {
                    return GuestShell.Outcome.of(2, "", name + ": -c: option requires an argument\n");
                }
                List<String> after = args.subList(i + 2, args.size());
                List<String> params = after.isEmpty() ? List.of(name) : after;
                return sh.script(args.get(i + 1), GuestCommands.in(sh, input), params);
            }
            i++;
        }
        if (i >= args.size()) {
            return sh.script(
                    new String(GuestCommands.in(sh, input), StandardCharsets.UTF_8), new byte[0], List.of(name));
        }
        Optional<GuestFile> file = sh.fs.file(GuestShell.path(args.get(i)));
        if (file.isEmpty()) {
            return GuestShell.Outcome.of(2, "", name + ": 0: cannot open " + args.get(i) + ": No such file\n");
        }
        if (!file.get().text().startsWith("#!")) {
            return GuestShell.Outcome.of(
                    0, "", ""); // not a script the simulated guest reads (a bootstrap blob, say): it succeeds
        }
        return sh.script(file.get().text(), GuestCommands.in(sh, input), args.subList(i, args.size()));
    }
}
