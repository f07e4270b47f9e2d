package dev.bigfleet.proxmox.conformance;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import dev.bigfleet.proxmox.conformance.support.Outcome;
import dev.bigfleet.proxmox.conformance.support.ProviderClient;
import dev.bigfleet.proxmox.conformance.target.Profile;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the conformance suite against a provider named on the command line:
 *
 * <pre>conformance --target host:port [--fault-target host:port]</pre>
 *
 * Prints every failure (display name and message), then a last line {@code N passed, N failed,
 * N skipped}. Exit code 0 iff nothing failed, 2 on bad arguments. Fault-profile behaviours are
 * skipped unless {@code --fault-target} names a server in fault mode.
 */
public final class ConformanceMain {
    private static final String USAGE = String.join(
            "\n",
            "usage: conformance --target HOST:PORT [--fault-target HOST:PORT]",
            "",
            "Runs the BigFleet CapacityProvider conformance suite over plaintext gRPC.",
            "  --target HOST:PORT        the provider under test (core, cloud and property behaviours)",
            "  --fault-target HOST:PORT  a provider started with --fake-faults and a short transition",
            "                            timeout (timeout and failure behaviours; skipped if absent)",
            "  -h, --help                print this help",
            "",
            "Exit code: 0 if nothing failed, 1 if a behaviour failed, 2 on bad arguments.");

    private ConformanceMain() {}

    public static void main(String[] args) {
        int code;
        try {
            code = run(args, System.out, System.err);
        } finally {
            ProviderClient.closeAll();
        }
        System.exit(code);
    }

    /** Parses the arguments, runs the suite and returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> options = new TreeMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-h") || arg.equals("--help")) {
                out.println(USAGE);
                return 0;
            }
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            if (!name.equals("--target") && !name.equals("--fault-target")) {
                err.println("conformance: unknown argument '" + arg + "' (try --help)");
                return 2;
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    err.println("conformance: " + name + " needs a HOST:PORT value");
                    return 2;
                }
                value = args[++i];
            }
            Optional<String> problem = checkEndpoint(value);
            if (problem.isPresent()) {
                err.println("conformance: " + name + " '" + value + "': " + problem.get());
                return 2;
            }
            if (options.put(name, value) != null) {
                err.println("conformance: " + name + " given twice");
                return 2;
            }
        }
        if (!options.containsKey("--target")) {
            err.println("conformance: --target HOST:PORT is required (try --help)");
            return 2;
        }
        // must happen before anything resolves Targets: naming endpoints disables self-started servers
        System.setProperty(Profile.CORE.property(), options.get("--target"));
        if (options.containsKey("--fault-target")) {
            System.setProperty(Profile.FAULT.property(), options.get("--fault-target"));
        }
        awaitReachable("--target", options.get("--target"), err);
        if (options.containsKey("--fault-target")) {
            awaitReachable("--fault-target", options.get("--fault-target"), err);
        }
        return runSuite(out);
    }

    /** Gives a provider that is still starting up a minute; the suite runs (and reports) either way. */
    private static void awaitReachable(String flag, String target, PrintStream err) {
        Outcome<?> probe = ProviderClient.forTarget(target).awaitReachable(60);
        if (!probe.ok()) {
            err.println("conformance: warning: " + flag + " " + target + " does not answer List: " + probe);
        }
    }

    /** host:port with a non-empty host and a port in 1..65535 (IPv6 hosts in brackets). */
    static Optional<String> checkEndpoint(String value) {
        int colon = value.lastIndexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            return Optional.of("expected HOST:PORT");
        }
        String host = value.substring(0, colon);
        if (host.isBlank()
                || host.contains("/")
                || (host.contains(":") && !(host.startsWith("[") && host.endsWith("]")))) {
            return Optional.of("expected HOST:PORT (bracket IPv6 hosts: [::1]:PORT)");
        }
        try {
            int port = Integer.parseInt(value.substring(colon + 1));
            if (port < 1 || port > 65535) {
                return Optional.of("port out of range 1..65535");
            }
        } catch (NumberFormatException e) {
            return Optional.of("port is not a number");
        }
        return Optional.empty();
    }

    private static int runSuite(PrintStream out) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectPackage(ConformanceMain.class.getPackageName()))
                // jqwik: keep the failing-seed database out of the caller's directory, and only
                // print statistics for failing properties (seeds are in the failure message)
                .configurationParameter(
                        "jqwik.database",
                        Path.of(System.getProperty("java.io.tmpdir"), "bigfleet-conformance.jqwik-database")
                                .toString())
                .configurationParameter("jqwik.reporting.onlyfailures", "true")
                .build();
        Tally tally = new Tally(out);
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, tally);
        for (String failure : tally.failures) {
            out.println(failure);
        }
        out.println(tally.passed + " passed, " + tally.failed + " failed, " + tally.skipped + " skipped");
        return tally.failed == 0 ? 0 : 1;
    }

    /**
     * Counts tests (not containers) by outcome; a failing container (e.g. a class that cannot be
     * instantiated) counts as a failure too, so it can never pass silently.
     */
    private static final class Tally implements TestExecutionListener {
        private final PrintStream out;
        final List<String> failures = new ArrayList<>();
        int passed;
        int failed;
        int skipped;

        Tally(PrintStream out) {
            this.out = out;
        }

        @Override
        public void executionSkipped(TestIdentifier test, String reason) {
            if (test.isTest()) {
                skipped++;
            }
        }

        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            switch (result.getStatus()) {
                case SUCCESSFUL -> {
                    if (test.isTest()) {
                        passed++;
                        out.println("PASS  " + test.getDisplayName());
                    }
                }
                case ABORTED -> {
                    if (test.isTest()) {
                        skipped++;
                        out.println("SKIP  " + test.getDisplayName() + reason(result));
                    }
                }
                case FAILED -> {
                    failed++;
                    out.println("FAIL  " + test.getDisplayName());
                    failures.add("FAILED " + test.getDisplayName() + reason(result));
                }
            }
        }

        private static String reason(TestExecutionResult result) {
            return result.getThrowable()
                    .map(t -> ": "
                            + (t.getMessage() == null
                                    ? t.getClass().getName()
                                    : t.getMessage().strip()))
                    .orElse("");
        }
    }
}
