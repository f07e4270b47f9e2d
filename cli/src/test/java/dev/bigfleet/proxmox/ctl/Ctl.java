package dev.bigfleet.proxmox.ctl;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/** Runs bigfleetctl in this JVM against a provider, as a shell would, capturing what it prints. */
final class Ctl {
    private final List<String> connection;

    Ctl(String... connection) {
        this.connection = List.of(connection);
    }

    record Result(int exit, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }
    }

    Result run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(connection);
        return runExactly(all.toArray(String[]::new));
    }

    static Result runExactly(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Bigfleetctl.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Result(exit, out.toString(), err.toString());
    }
}
