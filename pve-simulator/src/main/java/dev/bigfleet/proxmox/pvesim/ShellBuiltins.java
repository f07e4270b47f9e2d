package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.List;

/** The builtins that change the shell itself: {@code set}, {@code trap}, {@code exec}, {@code export}, {@code unset}, {@code shift}, {@code cd}. */
final class ShellBuiltins {
    private ShellBuiltins() {}

    /** @return the builtin's outcome, or null when {@code argv} is not one */
    static GuestShell.Outcome run(GuestShell sh, List<String> argv, byte[] input) {
        List<String> args = argv.subList(1, argv.size());
        switch (argv.get(0)) {
            case "set":
                return set(sh, args);
            case "trap":
                return trap(sh, args);
            case "exec":
                if (args.isEmpty()) {
                    return ok();
                }
                GuestShell.Outcome o = sh.command(new ArrayList<>(args), input);
                sh.exitCode = o.code();
                return o;
            case "export":
            case "readonly":
                for (String a : args) {
                    int eq = a.indexOf('=');
                    if (eq > 0) {
                        sh.vars.put(a.substring(0, eq), a.substring(eq + 1));
                    }
                }
                return ok();
            case "unset":
                args.forEach(sh.vars::remove);
                return ok();
            case "shift":
                int n = args.isEmpty() ? 1 : Integer.parseInt(args.get(0));
                if (n > sh.positional.size() - 1) {
                    return GuestShell.Outcome.of(2, "", "sh: shift: can't shift that many\n");
                }
                List<String> rest = new ArrayList<>(List.of(sh.positional.get(0)));
                rest.addAll(sh.positional.subList(1 + n, sh.positional.size()));
                sh.positional = rest;
                return ok();
            case "cd":
                return ok(); // the simulated guest has no directories to change into
            default:
                return null;
        }
    }

    private static GuestShell.Outcome ok() {
        return GuestShell.Outcome.of(0, "", "");
    }

    private static GuestShell.Outcome set(GuestShell sh, List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                List<String> params = new ArrayList<>(List.of(sh.positional.get(0)));
                params.addAll(args.subList(i + 1, args.size()));
                sh.positional = params;
                return ok();
            }
            if ((a.equals("-o") || a.equals("+o")) && i + 1 < args.size()) {
                String option = args.get(++i);
                if (!option(
                        sh, option.equals("errexit") ? 'e' : option.equals("nounset") ? 'u' : '?', a.startsWith("-"))) {
                    return GuestShell.Outcome.of(2, "", "sh: set: Illegal option -o " + option + "\n");
                }
                continue;
            }
            if (!a.startsWith("-") && !a.startsWith("+")) {
                return GuestShell.Outcome.of(2, "", "sh: set: Illegal option " + a + "\n");
            }
            for (char flag : a.substring(1).toCharArray()) {
                if (!option(sh, flag, a.startsWith("-"))) {
                    return GuestShell.Outcome.of(2, "", "sh: set: Illegal option -" + flag + "\n");
                }
            }
        }
        return ok();
    }

    private static boolean option(GuestShell sh, char flag, boolean on) {
        switch (flag) {
            case 'e' -> sh.errexit = on;
            case 'u' -> sh.nounset = on;
            case 'x', 'f', 'C' -> {
                // accepted; the simulated guest neither traces nor globs
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /** {@code trap ACTION EXIT|0 ...}; other conditions are accepted and never fire (nothing signals the guest). */
    private static GuestShell.Outcome trap(GuestShell sh, List<String> args) {
        if (args.size() < 2) {
            return ok();
        }
        String action = args.get(0);
        for (String condition : args.subList(1, args.size())) {
            if (condition.equals("EXIT") || condition.equals("0")) {
                sh.exitTrap = action.equals("-") || action.isEmpty() ? null : action;
            }
        }
        return ok();
    }
}
