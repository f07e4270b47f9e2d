package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What {@link PveumStub} keeps between command lines, one line per object in a text file. */
final class StubState {
    final Set<String> pools = new LinkedHashSet<>();
    final Set<String> users = new LinkedHashSet<>();
    final Map<String, String> tokens = new LinkedHashMap<>();
    final Map<String, List<String>> roles = new LinkedHashMap<>();
    /** {@code PATH ROLE user|token ID PROPAGATE} */
    final Set<String> acls = new LinkedHashSet<>();

    private final Path file;

    private StubState(Path file) {
        this.file = file;
    }

    static StubState load(Path file) throws IOException {
        StubState s = new StubState(file);
        if (!Files.exists(file)) {
            return s;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", -1);
            switch (f[0]) {
                case "pool" -> s.pools.add(f[1]);
                case "user" -> s.users.add(f[1]);
                case "token" -> s.tokens.put(f[1], f[2]);
                case "role" ->
                    s.roles.put(
                            f[1],
                            f[2].isEmpty() ? new ArrayList<>() : new ArrayList<>(Arrays.asList(f[2].split(",", -1))));
                case "acl" -> s.acls.add(f[1]);
                default -> throw new IOException("bad stub state line: " + line);
            }
        }
        return s;
    }

    void save() throws IOException {
        List<String> lines = new ArrayList<>();
        pools.forEach(p -> lines.add("pool\t" + p));
        users.forEach(u -> lines.add("user\t" + u));
        tokens.forEach((t, secret) -> lines.add("token\t" + t + "\t" + secret));
        roles.forEach((r, privs) -> lines.add("role\t" + r + "\t" + String.join(",", privs)));
        acls.forEach(a -> lines.add("acl\t" + a));
        Files.write(file, lines, StandardCharsets.UTF_8);
    }
}
