package dev.bigfleet.proxmox.pvesim;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The programs the built-in guest knows: enough file handling to stage, protect and remove a
 * bootstrap file ({@code umask touch chmod install cat cp mv rm tee base64 test mkdir}), {@code
 * tar} ({@link GuestTar}), a few shell words, {@code sh}, and {@code kubeadm join} and {@code
 * kubectl drain} ({@link GuestKubernetes}). A script file run by its path is interpreted when it
 * starts with {@code #!} and is executable; anything else exits 0.
 */
final class GuestCommands {
    private GuestCommands() {}

    static GuestShell.Outcome run(GuestShell sh, List<String> argv, byte[] input) {
        String prog = argv.get(0);
        String name = prog.substring(prog.lastIndexOf('/') + 1);
        List<String> args = argv.subList(1, argv.size());
        switch (name) {
            case ":":
            case "true":
                return ok("");
            case "false":
                return GuestShell.Outcome.of(1, "", "");
            case "exit":
                sh.exitCode = args.isEmpty() ? 0 : parseInt(args.get(0), 2);
                return GuestShell.Outcome.of(sh.exitCode, "", "");
            case "umask":
                return umask(sh, args);
            case "echo":
                return echo(args);
            case "printf":
                return printf(args);
            case "cat":
                return cat(sh, args, input);
            case "tee":
                return tee(sh, args, input);
            case "touch":
                return touch(sh, args);
            case "chmod":
                return chmod(sh, args);
            case "rm":
                return rm(sh, args);
            case "mv":
            case "cp":
                return copy(sh, name, args);
            case "install":
                return install(sh, args);
            case "base64":
                return base64(sh, args, input);
            case "test":
            case "[":
                return test(sh, args);
            case "sh":
            case "bash":
            case "dash":
                return ShellInvocation.shell(sh, name, args, input);
            case "mkdir":
                return ok(""); // the guest has no directories: every one exists
            case "tar":
                return GuestTar.run(sh, args);
            case "hostname":
                return ok("vm-" + sh.fs.vmid() + "\n");
            case "kubectl":
                return GuestKubernetes.kubectl(sh, args);
            case "kubeadm":
                return GuestKubernetes.kubeadm(sh, args);
            default:
                return ShellInvocation.byPath(sh, prog, args, input);
        }
    }

    /** Commands that read stdin take the piped input, else the shell's (once). */
    static byte[] in(GuestShell sh, byte[] input) {
        return input != null ? input : sh.takeStdin();
    }

    private static GuestShell.Outcome ok(String out) {
        return GuestShell.Outcome.of(0, out, "");
    }

    private static GuestShell.Outcome fail(int code, String err) {
        return GuestShell.Outcome.of(code, "", err);
    }

    private static int parseInt(String s, int dflt) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    private static Integer octal(String s) {
        return s.matches("[0-7]{1,4}") ? Integer.parseInt(s, 8) : null;
    }

    private static GuestShell.Outcome umask(GuestShell sh, List<String> args) {
        if (args.isEmpty()) {
            return ok(String.format("%04o%n", sh.umask));
        }
        Integer m = octal(args.get(0));
        if (m == null) {
            return fail(2, "umask: Illegal mode: " + args.get(0) + "\n");
        }
        sh.umask = m & 0777;
        return ok("");
    }

    private static GuestShell.Outcome echo(List<String> args) {
        boolean newline = true;
        List<String> words = args;
        if (!args.isEmpty() && args.get(0).equals("-n")) {
            newline = false;
            words = args.subList(1, args.size());
        }
        return ok(String.join(" ", words) + (newline ? "\n" : ""));
    }

    private static GuestShell.Outcome printf(List<String> args) {
        if (args.isEmpty()) {
            return fail(2, "printf: usage: printf format [arguments]\n");
        }
        String fmt = args.get(0).replace("\\n", "\n").replace("\\t", "\t");
        StringBuilder out = new StringBuilder();
        int next = 1;
        for (int i = 0; i < fmt.length(); i++) {
            char c = fmt.charAt(i);
            if (c == '%' && i + 1 < fmt.length()) {
                char f = fmt.charAt(++i);
                if (f == '%') {
                    out.append('%');
                } else {
                    out.append(next < args.size() ? args.get(next++) : "");
                }
            } else {
                out.append(c);
            }
        }
        return ok(out.toString());
    }

    private static GuestShell.Outcome cat(GuestShell sh, List<String> args, byte[] input) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringBuilder err = new StringBuilder();
        int code = 0;
        if (args.isEmpty() || args.equals(List.of("-"))) {
            out.writeBytes(in(sh, input));
        }
        for (String a : args) {
            if (a.equals("-")) {
                continue;
            }
            Optional<GuestFile> f = readable(sh, a);
            if (f.isEmpty()) {
                err.append("cat: ").append(a).append(": No such file or directory\n");
                code = 1;
            } else {
                out.writeBytes(f.get().content());
            }
        }
        return new GuestShell.Outcome(code, out.toByteArray(), err.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static Optional<GuestFile> readable(GuestShell sh, String p) {
        if (p.equals("/dev/null")) {
            return Optional.of(new GuestFile(p, new byte[0], 0666));
        }
        return sh.fs.file(GuestShell.path(p));
    }

    private static GuestShell.Outcome tee(GuestShell sh, List<String> args, byte[] piped) {
        byte[] input = in(sh, piped);
        boolean append = false;
        for (String a : args) {
            if (a.equals("-a")) {
                append = true;
            } else if (!a.equals("/dev/null")) {
                String p = GuestShell.path(a);
                byte[] content = append
                        ? GuestShell.concat(
                                sh.fs.file(p).map(GuestFile::content).orElse(new byte[0]), input)
                        : input;
                sh.fs.write(p, content, 0666 & ~sh.umask);
            }
        }
        return new GuestShell.Outcome(0, input, new byte[0]);
    }

    private static GuestShell.Outcome touch(GuestShell sh, List<String> args) {
        for (String a : args) {
            String p = GuestShell.path(a);
            if (!a.startsWith("-") && sh.fs.file(p).isEmpty()) {
                sh.fs.write(p, new byte[0], 0666 & ~sh.umask);
            }
        }
        return ok("");
    }

    private static GuestShell.Outcome chmod(GuestShell sh, List<String> args) {
        List<String> rest = withoutFlags(args);
        if (rest.size() < 2) {
            return fail(1, "chmod: missing operand\n");
        }
        Integer mode = octal(rest.get(0));
        if (mode == null) {
            return fail(1, "chmod: invalid mode: '" + rest.get(0) + "' (the simulated guest knows octal modes only)\n");
        }
        StringBuilder err = new StringBuilder();
        for (String a : rest.subList(1, rest.size())) {
            if (!sh.fs.chmod(GuestShell.path(a), mode)) {
                err.append("chmod: cannot access '").append(a).append("': No such file or directory\n");
            }
        }
        return err.length() == 0 ? ok("") : fail(1, err.toString());
    }

    private static GuestShell.Outcome rm(GuestShell sh, List<String> args) {
        boolean force = args.stream().anyMatch(a -> a.startsWith("-") && a.contains("f"));
        boolean recursive = args.stream().anyMatch(a -> a.startsWith("-") && (a.contains("r") || a.contains("R")));
        StringBuilder err = new StringBuilder();
        for (String a : withoutFlags(args)) {
            String p = GuestShell.path(a);
            boolean removedTree = false;
            if (recursive) {
                String dir = p.endsWith("/") ? p : p + "/";
                for (String inside : sh.fs.paths()) {
                    removedTree |= inside.startsWith(dir) && sh.fs.remove(inside);
                }
            }
            if (!sh.fs.remove(p) && !removedTree && !force) {
                err.append("rm: cannot remove '").append(a).append("': No such file or directory\n");
            }
        }
        return err.length() == 0 ? ok("") : fail(1, err.toString());
    }

    private static GuestShell.Outcome copy(GuestShell sh, String name, List<String> args) {
        List<String> rest = withoutFlags(args);
        if (rest.size() != 2) {
            return fail(1, name + ": expected SOURCE DEST\n");
        }
        Optional<GuestFile> src = readable(sh, rest.get(0));
        if (src.isEmpty()) {
            return fail(1, name + ": cannot stat '" + rest.get(0) + "': No such file or directory\n");
        }
        String dst = GuestShell.path(rest.get(1));
        if (name.equals("mv")) {
            // rename(2) replaces the target, mode included.
            sh.fs.remove(dst);
            sh.fs.write(dst, src.get().content(), src.get().mode());
            sh.fs.remove(src.get().path());
        } else {
            sh.fs.write(dst, src.get().content(), src.get().mode() & ~sh.umask);
        }
        return ok("");
    }

    private static GuestShell.Outcome install(GuestShell sh, List<String> args) {
        int mode = 0755;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-m") && i + 1 < args.size()) {
                Integer m = octal(args.get(++i));
                if (m == null) {
                    return fail(1, "install: invalid mode '" + args.get(i) + "'\n");
                }
                mode = m;
            } else if ((a.equals("-o") || a.equals("-g")) && i + 1 < args.size()) {
                i++;
            } else if (!a.startsWith("-")) {
                rest.add(a);
            }
        }
        if (rest.size() != 2) {
            return fail(1, "install: expected SOURCE DEST\n");
        }
        Optional<GuestFile> src = readable(sh, rest.get(0));
        if (src.isEmpty()) {
            return fail(1, "install: cannot stat '" + rest.get(0) + "': No such file or directory\n");
        }
        String dst = GuestShell.path(rest.get(1));
        sh.fs.write(dst, src.get().content(), mode);
        sh.fs.chmod(dst, mode);
        return ok("");
    }

    private static GuestShell.Outcome base64(GuestShell sh, List<String> args, byte[] input) {
        boolean decode = args.contains("-d") || args.contains("--decode");
        List<String> files = withoutFlags(args);
        byte[] data;
        if (files.isEmpty()) {
            data = in(sh, input);
        } else {
            Optional<GuestFile> f = readable(sh, files.get(0));
            if (f.isEmpty()) {
                return fail(1, "base64: " + files.get(0) + ": No such file or directory\n");
            }
            data = f.get().content();
        }
        if (decode) {
            try {
                return new GuestShell.Outcome(0, Base64.getMimeDecoder().decode(data), new byte[0]);
            } catch (IllegalArgumentException e) {
                return fail(1, "base64: invalid input\n");
            }
        }
        String enc = Base64.getMimeEncoder(76, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(data);
        return ok(enc.isEmpty() ? "" : enc + "\n");
    }

    private static GuestShell.Outcome test(GuestShell sh, List<String> args) {
        List<String> a = new ArrayList<>(args);
        if (!a.isEmpty() && a.get(a.size() - 1).equals("]")) {
            a.remove(a.size() - 1);
        }
        boolean negate = !a.isEmpty() && a.get(0).equals("!");
        if (negate) {
            a.remove(0);
        }
        boolean result;
        if (a.size() == 2) {
            String op = a.get(0);
            String v = a.get(1);
            Optional<GuestFile> f = sh.fs.file(GuestShell.path(v));
            switch (op) {
                case "-e":
                case "-f":
                    result = f.isPresent();
                    break;
                case "-s":
                    result = f.isPresent() && f.get().size() > 0;
                    break;
                case "-n":
                    result = !v.isEmpty();
                    break;
                case "-z":
                    result = v.isEmpty();
                    break;
                default:
                    result = true;
            }
        } else if (a.size() == 1) {
            result = !a.get(0).isEmpty();
        } else {
            result = a.size() == 3
                    && (a.get(1).equals("=")
                            ? a.get(0).equals(a.get(2))
                            : !a.get(0).equals(a.get(2)));
        }
        return GuestShell.Outcome.of(result != negate ? 0 : 1, "", "");
    }

    private static List<String> withoutFlags(List<String> args) {
        List<String> out = new ArrayList<>();
        for (String a : args) {
            if (!a.startsWith("-") || a.equals("-")) {
                out.add(a);
            }
        }
        return out;
    }
}
