package dev.bigfleet.proxmox.pvesim;

import dev.bigfleet.proxmox.pvesim.ShellLexer.Literal;
import dev.bigfleet.proxmox.pvesim.ShellLexer.Param;
import dev.bigfleet.proxmox.pvesim.ShellLexer.Part;
import dev.bigfleet.proxmox.pvesim.ShellLexer.Substitution;
import dev.bigfleet.proxmox.pvesim.ShellLexer.Token;
import dev.bigfleet.proxmox.pvesim.ShellSyntax.AndOr;
import dev.bigfleet.proxmox.pvesim.ShellSyntax.Command;
import dev.bigfleet.proxmox.pvesim.ShellSyntax.If;
import dev.bigfleet.proxmox.pvesim.ShellSyntax.Pipeline;
import dev.bigfleet.proxmox.pvesim.ShellSyntax.Script;
import dev.bigfleet.proxmox.pvesim.ShellSyntax.Simple;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The built-in guest behind {@code agent/exec}: runs one command, or a small POSIX shell script
 * given as {@code sh -c SCRIPT} or as a script file ({@code sh FILE ARGS}, or a file run by its
 * path), against the guest's simulated files. It knows sequences, {@code && ||}, {@code !},
 * pipes, redirections, {@code if/elif/else/fi}, variables and positional parameters (expanded,
 * never field-split), command substitution, {@code set -e/-u}, {@code trap ... EXIT}, {@code exec},
 * and the programs in {@link GuestCommands}; any other program succeeds silently. A script file is
 * interpreted only when it starts with {@code #!}; another file given to {@code sh} (say, a
 * bootstrap blob) succeeds when it exists.
 */
final class GuestShell {
    private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=.*", Pattern.DOTALL);

    final GuestFileSystem fs;
    int umask = 022;
    private byte[] stdin;
    /** Set by {@code exit}, {@code exec} or a failure under {@code set -e}; stops the rest of the script. */
    Integer exitCode;

    final Map<String, String> vars = new HashMap<>();
    /** {@code $0}, {@code $1}, ... */
    List<String> positional = List.of("sh");

    boolean errexit;
    boolean nounset;
    String exitTrap;
    private int status;
    /** Depth of contexts whose failures {@code set -e} ignores: conditions, non-final and-or parts, {@code !}. */
    private int checked;

    private ByteArrayOutputStream out = new ByteArrayOutputStream();
    private ByteArrayOutputStream err = new ByteArrayOutputStream();

    // raw output bytes of one command; never compared
    @SuppressWarnings("ArrayRecordComponent")
    record Outcome(int code, byte[] out, byte[] err) {
        static Outcome of(int code, String out, String err) {
            return new Outcome(code, out.getBytes(StandardCharsets.UTF_8), err.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** {@code ${name}} unset under {@code set -u}. */
    private static final class Unset extends Exception {
        private static final long serialVersionUID = 1L;

        Unset(String name) {
            super(name + ": parameter not set");
        }
    }

    GuestShell(GuestFileSystem fs) {
        this.fs = fs;
    }

    ExecResult run(List<String> argv, String input) {
        stdin = input.getBytes(StandardCharsets.UTF_8);
        Outcome o = command(argv, null);
        return ExecResult.exit(o.code, text(o.out), text(o.err));
    }

    /** Runs a script with {@code input} as its stdin and {@code $0 $1 ...}, in a child shell that inherits the umask. */
    Outcome script(String text, byte[] input, List<String> parameters) {
        GuestShell child = new GuestShell(fs);
        child.umask = umask;
        child.stdin = input;
        child.positional = List.copyOf(parameters);
        return child.runScript(text);
    }

    private Outcome runScript(String text) {
        Script script;
        try {
            script = ShellSyntax.parse(text);
        } catch (ShellSyntax.SyntaxError e) {
            return Outcome.of(2, "", positional.get(0) + ": Syntax error: " + e.getMessage() + "\n");
        }
        int code = list(script);
        if (exitCode != null) {
            code = exitCode;
        }
        if (exitTrap != null) {
            String trap = exitTrap;
            exitTrap = null;
            exitCode = null;
            try {
                list(ShellSyntax.parse(trap));
            } catch (ShellSyntax.SyntaxError e) {
                err.writeBytes(("trap: Syntax error: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
            }
            if (exitCode != null) {
                code = exitCode;
            }
        }
        return new Outcome(code, out.toByteArray(), err.toByteArray());
    }

    private int list(Script script) {
        int last = 0;
        for (AndOr item : script.items()) {
            last = andOr(item);
            if (exitCode != null) {
                break;
            }
        }
        return last;
    }

    private int andOr(AndOr item) {
        int st = 0;
        int lastRun = -1;
        int n = item.pipelines().size();
        for (int i = 0; i < n; i++) {
            if (i > 0 && item.ops().get(i - 1).equals("&&") != (st == 0)) {
                continue;
            }
            boolean last = i == n - 1;
            checked += last ? 0 : 1;
            try {
                st = pipeline(item.pipelines().get(i));
            } finally {
                checked -= last ? 0 : 1;
            }
            lastRun = i;
            if (exitCode != null) {
                return st;
            }
        }
        status = st;
        if (st != 0 && errexit && checked == 0 && lastRun == n - 1) {
            exitCode = st;
        }
        return st;
    }

    private int pipeline(Pipeline p) {
        checked += p.negated() ? 1 : 0;
        byte[] input = null;
        Outcome last = null;
        try {
            for (Command c : p.commands()) {
                last = command(c, input);
                err.writeBytes(last.err);
                input = last.out;
                if (exitCode != null) {
                    break;
                }
            }
        } finally {
            checked -= p.negated() ? 1 : 0;
        }
        out.writeBytes(last.out);
        status = p.negated() ? (last.code == 0 ? 1 : 0) : last.code;
        return status;
    }

    private Outcome command(Command c, byte[] input) {
        if (c instanceof If f) {
            return captured(() -> ifCommand(f));
        }
        return simple((Simple) c, input);
    }

    private int ifCommand(If f) {
        for (int i = 0; i < f.conditions().size(); i++) {
            checked++;
            int condition;
            try {
                condition = list(f.conditions().get(i));
            } finally {
                checked--;
            }
            if (exitCode != null) {
                return condition;
            }
            if (condition == 0) {
                return list(f.bodies().get(i));
            }
        }
        return f.otherwise() == null ? 0 : list(f.otherwise());
    }

    /** Runs {@code body} with its output gathered apart, as the outcome of one command. */
    private Outcome captured(java.util.function.IntSupplier body) {
        ByteArrayOutputStream outerOut = out;
        ByteArrayOutputStream outerErr = err;
        out = new ByteArrayOutputStream();
        err = new ByteArrayOutputStream();
        try {
            int code = body.getAsInt();
            return new Outcome(code, out.toByteArray(), err.toByteArray());
        } finally {
            out = outerOut;
            err = outerErr;
        }
    }

    private Outcome simple(Simple c, byte[] piped) {
        List<String> argv = new ArrayList<>();
        Map<String, String> assignments = new HashMap<>();
        List<GuestRedirects.Redirect> redirects = new ArrayList<>();
        try {
            for (Token word : c.words()) {
                // NAME=... with the name unquoted, as written
                if (argv.isEmpty() && ASSIGNMENT.matcher(word.text()).matches()) {
                    String name = word.text().substring(0, word.text().indexOf('='));
                    assignments.put(name, expand(withoutPrefix(word.parts(), name.length() + 1)));
                } else {
                    argv.add(expand(word.parts()));
                }
            }
            for (ShellSyntax.Redirect r : c.redirects()) {
                redirects.add(new GuestRedirects.Redirect(
                        r.op(), r.target() == null ? "" : expand(r.target().parts())));
            }
        } catch (Unset e) {
            exitCode = 2; // a non-interactive shell ends on an expansion error
            return Outcome.of(2, "", positional.get(0) + ": " + e.getMessage() + "\n");
        }
        if (argv.isEmpty()) {
            vars.putAll(assignments);
        }
        return GuestRedirects.apply(this, redirects, piped, input -> {
            if (argv.isEmpty()) {
                return Outcome.of(0, "", "");
            }
            Outcome builtin = ShellBuiltins.run(this, argv, input);
            return builtin != null ? builtin : command(argv, input);
        });
    }

    private String expand(List<Part> parts) throws Unset {
        StringBuilder s = new StringBuilder();
        for (Part part : parts) {
            if (part instanceof Literal l) {
                s.append(l.text());
            } else if (part instanceof Param p) {
                String v = parameter(p.name());
                if ((v == null || v.isEmpty()) && p.fallback() != null) {
                    v = expand(p.fallback());
                } else if (v == null && nounset) {
                    throw new Unset(p.name());
                }
                s.append(v == null ? "" : v);
            } else if (part instanceof Substitution sub) {
                GuestShell child = new GuestShell(fs);
                child.umask = umask;
                child.vars.putAll(vars);
                child.positional = positional;
                child.stdin = new byte[0];
                Outcome o = child.runScript(sub.script());
                err.writeBytes(o.err);
                status = o.code;
                s.append(text(o.out).replaceAll("\n+$", ""));
            }
        }
        return s.toString();
    }

    private String parameter(String name) {
        if (name.chars().allMatch(Character::isDigit)) {
            int n = Integer.parseInt(name);
            return n < positional.size() ? positional.get(n) : null;
        }
        return switch (name) {
            case "#" -> String.valueOf(positional.size() - 1);
            case "?" -> String.valueOf(status);
            case "@", "*" -> String.join(" ", positional.subList(1, positional.size()));
            default -> vars.get(name);
        };
    }

    /** The word's parts without the {@code NAME=} its first literal starts with. */
    private static List<Part> withoutPrefix(List<Part> parts, int length) {
        List<Part> rest = new ArrayList<>(parts);
        Literal first = (Literal) rest.get(0);
        rest.set(0, new Literal(first.text().substring(length)));
        return rest;
    }

    /** {@code input} is the piped or redirected stdin, or null for the shell's own. */
    Outcome command(List<String> argv, byte[] input) {
        return GuestCommands.run(this, argv, input);
    }

    /** The script's stdin goes to the first command that reads it. */
    byte[] takeStdin() {
        byte[] s = stdin == null ? new byte[0] : stdin;
        stdin = new byte[0];
        return s;
    }

    static String path(String p) {
        return p.startsWith("/") ? p : "/" + p;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] r = new byte[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
