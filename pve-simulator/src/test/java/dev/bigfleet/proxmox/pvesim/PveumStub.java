package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A stand-in for Proxmox VE's {@code pveum}, for testing the setup kit: it knows the commands the
 * kit may use, checks each command line (positional arguments, options, their values) and every
 * privilege name against {@link Privileges} of the PVE version it plays, and keeps users, tokens,
 * roles, pools and ACLs in a state file so a second run meets what the first made. Failures are
 * answered as pveum does: the message on stderr, exit status 255. {@link PveumStubServer} serves it
 * to a {@code pveum} command on the script's PATH.
 */
public final class PveumStub {
    /** Roles every Proxmox VE installation has (pve-access-control's special roles); none can be added. */
    static final Set<String> BUILT_IN_ROLES = Set.of(
            "Administrator",
            "NoAccess",
            "PVEAdmin",
            "PVEAuditor",
            "PVEDatastoreAdmin",
            "PVEDatastoreUser",
            "PVEMappingAdmin",
            "PVEMappingUser",
            "PVEPoolAdmin",
            "PVEPoolUser",
            "PVESysAdmin",
            "PVETemplateUser",
            "PVEUserAdmin",
            "PVEVMAdmin",
            "PVEVMUser");

    private static final Pattern ID = Pattern.compile("[A-Za-z][A-Za-z0-9._-]*");
    private static final Pattern USER = Pattern.compile("[^\\s:/@!]+@(pve|pam)");
    private static final Pattern ACL_PATH =
            Pattern.compile("/|/nodes(/[a-z0-9-]+)?|/vms(/[1-9][0-9]*)?|/pool/[A-Za-z0-9_-]+|/storage/[a-z][a-z0-9._-]*"
                    + "|/sdn/zones/[a-z][a-z0-9]*/[A-Za-z0-9._-]+|/mapping/(pci|usb|dir)(/[A-Za-z][A-Za-z0-9_-]*)?");

    /** What the stub refuses, with pveum's message. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    private final Set<String> privileges;
    private final StubState state;

    private PveumStub(Set<String> privileges, StubState state) {
        this.privileges = privileges;
        this.state = state;
    }

    /** What one pveum command line answered: its exit status and what it printed. */
    record Answer(int exit, String out, String err) {}

    /**
     * Runs one pveum command line against the state in {@code dir} as PVE {@code pveVersion} would,
     * logging it to {@code calls.log} there.
     */
    static Answer call(Path dir, int pveVersion, List<String> args) throws IOException {
        Files.writeString(
                dir.resolve("calls.log"),
                String.join("\u001f", args) + "\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        StubState state = StubState.load(dir.resolve("state"));
        PveumStub stub = new PveumStub(Privileges.of(pveVersion), state);
        try {
            String out = stub.run(args);
            state.save();
            return new Answer(0, out, "");
        } catch (Refused e) {
            return new Answer(255, "", e.getMessage() + "\n");
        }
    }

    String run(List<String> argv) throws Refused {
        if (argv.size() < 2) {
            throw new Refused("ERROR: unknown command 'pveum " + String.join(" ", argv) + "'");
        }
        String command = argv.get(0) + " " + argv.get(1);
        if (command.equals("user token")) {
            if (argv.size() < 3) {
                throw new Refused("ERROR: unknown command 'pveum user token'");
            }
            command = "user token " + argv.get(2);
        }
        int skip = command.split(" ").length;
        List<String> positional = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        List<String> rest = argv.subList(skip, argv.size());
        for (int i = 0; i < rest.size(); i++) {
            String a = rest.get(i);
            if (a.startsWith("--")) {
                if (i + 1 >= rest.size()) {
                    throw new Refused("400 unable to parse option\n" + a.substring(2) + ": missing value");
                }
                options.put(a.substring(2), rest.get(++i));
            } else {
                positional.add(a);
            }
        }
        return switch (command) {
            case "pool add" -> poolAdd(positional, options);
            case "role add" -> roleAdd(positional, options, false);
            case "role modify" -> roleAdd(positional, options, true);
            case "user add" -> userAdd(positional, options);
            case "user token add" -> tokenAdd(positional, options);
            case "user token list" -> tokenList(positional, options);
            case "acl modify" -> aclModify(positional, options);
            default -> throw new Refused("ERROR: unknown command 'pveum " + command + "'");
        };
    }

    private static void expect(List<String> positional, Map<String, String> options, int count, Set<String> allowed)
            throws Refused {
        if (positional.size() != count) {
            throw new Refused("400 wrong number of arguments: " + positional);
        }
        for (String o : options.keySet()) {
            if (!allowed.contains(o)) {
                throw new Refused("400 Parameter verification failed.\n" + o + ": property is not defined in schema");
            }
        }
    }

    private static String check(String value, Pattern format, String what) throws Refused {
        if (!format.matcher(value).matches()) {
            throw new Refused("400 Parameter verification failed.\n" + what + ": invalid format - " + value);
        }
        return value;
    }

    private String poolAdd(List<String> positional, Map<String, String> options) throws Refused {
        expect(positional, options, 1, Set.of("comment"));
        String pool = check(positional.get(0), ID, "poolid");
        if (!state.pools.add(pool)) {
            throw new Refused("create failed: pool '" + pool + "' already exists");
        }
        return "";
    }

    private String roleAdd(List<String> positional, Map<String, String> options, boolean modify) throws Refused {
        expect(positional, options, 1, modify ? Set.of("privs", "append") : Set.of("privs"));
        String role = check(positional.get(0), ID, "roleid");
        if (modify != state.roles.containsKey(role)) {
            throw new Refused(modify ? "role '" + role + "' does not exist" : "role '" + role + "' already exists");
        }
        List<String> privs = new ArrayList<>();
        for (String p : options.getOrDefault("privs", "").split("[,;\\s]+", -1)) {
            if (p.isEmpty()) {
                continue;
            }
            if (!privileges.contains(p)) {
                throw new Refused("invalid privilege '" + p + "'");
            }
            privs.add(p);
        }
        if (modify && "1".equals(options.get("append"))) {
            privs.addAll(state.roles.get(role));
        }
        state.roles.put(role, privs);
        return "";
    }

    private String userAdd(List<String> positional, Map<String, String> options) throws Refused {
        expect(positional, options, 1, Set.of("comment", "enable", "expire"));
        String user = check(positional.get(0), USER, "userid");
        if (!state.users.add(user)) {
            throw new Refused("create user failed: user '" + user + "' already exists");
        }
        return "";
    }

    private String tokenAdd(List<String> positional, Map<String, String> options) throws Refused {
        expect(positional, options, 2, Set.of("privsep", "comment", "expire", "output-format"));
        String user = check(positional.get(0), USER, "userid");
        String token = check(positional.get(1), ID, "tokenid");
        if (!state.users.contains(user)) {
            throw new Refused("user '" + user + "' does not exist");
        }
        String privsep = options.getOrDefault("privsep", "1");
        if (!privsep.equals("0") && !privsep.equals("1")) {
            throw new Refused("400 Parameter verification failed.\nprivsep: type check ('boolean') failed");
        }
        String full = user + "!" + token;
        if (state.tokens.containsKey(full)) {
            throw new Refused("Token already exists.");
        }
        String secret = UUID.randomUUID().toString();
        state.tokens.put(full, secret);
        if (!"json".equals(options.get("output-format"))) {
            return "full-tokenid: " + full + "\nvalue: " + secret + "\n";
        }
        return "{\"full-tokenid\":\"" + full + "\",\"info\":{\"privsep\":" + privsep + "},\"value\":\"" + secret
                + "\"}\n";
    }

    private String tokenList(List<String> positional, Map<String, String> options) throws Refused {
        expect(positional, options, 1, Set.of("output-format"));
        String user = check(positional.get(0), USER, "userid");
        if (!state.users.contains(user)) {
            throw new Refused("user '" + user + "' does not exist");
        }
        List<String> entries = new ArrayList<>();
        state.tokens.keySet().stream()
                .filter(t -> t.startsWith(user + "!"))
                .forEach(t -> entries.add("{\"privsep\":1,\"tokenid\":\"" + t.substring(user.length() + 1) + "\"}"));
        return "[" + String.join(",", entries) + "]\n";
    }

    private String aclModify(List<String> positional, Map<String, String> options) throws Refused {
        expect(positional, options, 1, Set.of("roles", "users", "groups", "tokens", "propagate"));
        String path = check(positional.get(0), ACL_PATH, "path");
        String role = options.get("roles");
        if (role == null) {
            throw new Refused("400 Parameter verification failed.\nroles: property is missing and it is not optional");
        }
        if (!state.roles.containsKey(role) && !BUILT_IN_ROLES.contains(role)) {
            throw new Refused("role '" + role + "' does not exist");
        }
        if (!options.containsKey("users") && !options.containsKey("tokens") && !options.containsKey("groups")) {
            throw new Refused(
                    "400 Parameter verification failed.\nusers: either 'users', 'groups' or 'tokens' is required.");
        }
        String propagate = options.getOrDefault("propagate", "1");
        for (String user : options.getOrDefault("users", "").split(",", -1)) {
            if (!user.isEmpty()) {
                if (!state.users.contains(user)) {
                    throw new Refused("user '" + user + "' does not exist");
                }
                state.acls.add(String.join(" ", path, role, "user", user, propagate));
            }
        }
        for (String token : options.getOrDefault("tokens", "").split(",", -1)) {
            if (!token.isEmpty()) {
                if (!state.tokens.containsKey(token)) {
                    throw new Refused("no such token '" + token.substring(token.indexOf('!') + 1) + "' for user '"
                            + token.substring(0, token.indexOf('!')) + "'");
                }
                state.acls.add(String.join(" ", path, role, "token", token, propagate));
            }
        }
        return "";
    }
}
