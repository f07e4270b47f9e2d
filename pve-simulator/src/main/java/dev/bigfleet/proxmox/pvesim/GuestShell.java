package dev.bigfleet.proxmox.pvesim;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The built-in guest behind {@code agent/exec}: runs one command, or a small shell script given as
 * {@code sh -c SCRIPT}, against the guest's simulated files. It knows sequences, {@code && ||},
 * pipes and redirections, and the commands in {@link GuestCommands}; any other program succeeds
 * silently. Script files ({@code sh FILE}) are not interpreted: they succeed when the file exists.
 */
final class GuestShell {
    final GuestFileSystem fs;
    int umask = 022;
    private byte[] stdin;
    /** Set by {@code exit}; stops the rest of the script. */
    Integer exitCode;

    // raw output bytes of one command; never compared
    @SuppressWarnings("ArrayRecordComponent")
    record Outcome(int code, byte[] out, byte[] err) {
        static Outcome of(int code, String out, String err) {
            return new Outcome(code, out.getBytes(StandardCharsets.UTF_8), err.getBytes(StandardCharsets.UTF_8));
        }
    }

    record Redirect(String op, String target) {}

    record Simple(List<String> argv, List<Redirect> redirects) {}

    GuestShell(GuestFileSystem fs) {
        this.fs = fs;
    }

    ExecResult run(List<String> argv, String input) {
        stdin = input.getBytes(StandardCharsets.UTF_8);
        Outcome o = command(argv, null);
        return ExecResult.exit(o.code, text(o.out), text(o.err));
    }

    /** Runs a script with {@code input} as its stdin, in a child shell that inherits the umask. */
    Outcome script(String text, byte[] input) {
        GuestShell child = new GuestShell(fs);
        child.umask = umask;
        child.stdin = input;
        return child.runScript(ShellLexer.lex(text));
    }

    private Outcome runScript(List<ShellLexer.Token> tokens) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = 0;
        String connector = ";";
        int i = 0;
        while (i < tokens.size() && exitCode == null) {
            List<Simple> pipeline = new ArrayList<>();
            List<String> argv = new ArrayList<>();
            List<Redirect> redirects = new ArrayList<>();
            String next = ";";
            while (i < tokens.size()) {
                ShellLexer.Token t = tokens.get(i++);
                if (t.kind() == ShellLexer.Kind.WORD) {
                    argv.add(t.text());
                } else if (t.kind() == ShellLexer.Kind.REDIR) {
                    boolean dup = t.text().contains(">&");
                    String target =
                            dup || i >= tokens.size() ? "" : tokens.get(i++).text();
                    redirects.add(new Redirect(t.text(), target));
                } else if (t.text().equals("|")) {
                    pipeline.add(new Simple(argv, redirects));
                    argv = new ArrayList<>();
                    redirects = new ArrayList<>();
                } else {
                    next = t.text();
                    break;
                }
            }
            pipeline.add(new Simple(argv, redirects));
            boolean empty = pipeline.size() == 1 && argv.isEmpty() && redirects.isEmpty();
            boolean run = connector.equals(";") || (connector.equals("&&") == (status == 0));
            if (run && !empty) {
                Outcome o = pipeline(pipeline);
                out.writeBytes(o.out);
                err.writeBytes(o.err);
                status = o.code;
            }
            connector = next;
        }
        return new Outcome(exitCode != null ? exitCode : status, out.toByteArray(), err.toByteArray());
    }

    private Outcome pipeline(List<Simple> commands) {
        byte[] input = null;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Outcome last = null;
        for (Simple c : commands) {
            last = simple(c, input);
            err.writeBytes(last.err);
            input = last.out;
        }
        return new Outcome(last.code, last.out, err.toByteArray());
    }

    private Outcome simple(Simple c, byte[] piped) {
        byte[] input = piped;
        for (Redirect r : c.redirects()) {
            if (r.op().equals("<")) {
                var f = fs.file(path(r.target()));
                if (r.target().equals("/dev/null")) {
                    input = new byte[0];
                } else if (f.isEmpty()) {
                    return Outcome.of(2, "", "sh: 1: cannot open " + r.target() + ": No such file\n");
                } else {
                    input = f.get().content();
                }
            }
        }
        Outcome o = c.argv().isEmpty() ? new Outcome(0, new byte[0], new byte[0]) : command(c.argv(), input);
        byte[] out = o.out;
        byte[] err = o.err;
        for (Redirect r : c.redirects()) {
            switch (r.op()) {
                case "2>&1":
                    out = concat(out, err);
                    err = new byte[0];
                    break;
                case "1>&2":
                    err = concat(err, out);
                    out = new byte[0];
                    break;
                case ">":
                case ">>":
                    redirectTo(r, out);
                    out = new byte[0];
                    break;
                case "2>":
                case "2>>":
                    redirectTo(r, err);
                    err = new byte[0];
                    break;
                default:
                    break;
            }
        }
        return new Outcome(o.code, out, err);
    }

    private void redirectTo(Redirect r, byte[] data) {
        if (r.target().equals("/dev/null")) {
            return;
        }
        String p = path(r.target());
        byte[] content = data;
        if (r.op().endsWith(">>")) {
            content = concat(fs.file(p).map(GuestFile::content).orElse(new byte[0]), data);
        }
        fs.write(p, content, 0666 & ~umask);
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
