package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** A simple command's redirections: {@code <} before it runs, {@code > >> 2> 2>> 2>&1 1>&2} after. */
final class GuestRedirects {
    private GuestRedirects() {}

    /** One redirection with its target already expanded ({@code ""} for the fd duplications). */
    record Redirect(String op, String target) {}

    static GuestShell.Outcome apply(
            GuestShell sh, List<Redirect> redirects, byte[] piped, Function<byte[], GuestShell.Outcome> command) {
        byte[] input = piped;
        for (Redirect r : redirects) {
            if (r.op().equals("<")) {
                Optional<GuestFile> f = sh.fs.file(GuestShell.path(r.target()));
                if (r.target().equals("/dev/null")) {
                    input = new byte[0];
                } else if (f.isEmpty()) {
                    return GuestShell.Outcome.of(2, "", "sh: 1: cannot open " + r.target() + ": No such file\n");
                } else {
                    input = f.get().content();
                }
            }
        }
        GuestShell.Outcome o = command.apply(input);
        byte[] out = o.out();
        byte[] err = o.err();
        for (Redirect r : redirects) {
            switch (r.op()) {
                case "2>&1":
                    out = GuestShell.concat(out, err);
                    err = new byte[0];
                    break;
                case "1>&2":
                    err = GuestShell.concat(err, out);
                    out = new byte[0];
                    break;
                case ">":
                case ">>":
                    write(sh, r, out);
                    out = new byte[0];
                    break;
                case "2>":
                case "2>>":
                    write(sh, r, err);
                    err = new byte[0];
                    break;
                default:
                    break;
            }
        }
        return new GuestShell.Outcome(o.code(), out, err);
    }

    private static void write(GuestShell sh, Redirect r, byte[] data) {
        if (r.target().equals("/dev/null")) {
            return;
        }
        String p = GuestShell.path(r.target());
        byte[] content = data;
        if (r.op().endsWith(">>")) {
            content = GuestShell.concat(sh.fs.file(p).map(GuestFile::content).orElse(new byte[0]), data);
        }
        sh.fs.write(p, content, 0666 & ~sh.umask);
    }
}
