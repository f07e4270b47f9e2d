package dev.bigfleet.proxmox.server.proxmox;

import static org.junit.platform.engine.discovery.ClassNameFilter.excludeClassNamePatterns;
import static org.junit.platform.engine.discovery.ClassNameFilter.includeClassNamePatterns;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import dev.bigfleet.proxmox.conformance.support.ProviderClient;
import dev.bigfleet.proxmox.conformance.target.Profile;
import dev.bigfleet.proxmox.server.conformance.SuiteTally;
import dev.bigfleet.proxmox.testing.ChildJvmClassData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the conformance suite's core and cloud behaviours against one endpoint, in a JVM of its
 * own so the suite's per-JVM target cache cannot mix this endpoint up with the servers the build's
 * own conformance run starts. The durable profile is left out: it needs a provider the suite can
 * kill and restart itself.
 *
 * <pre>CoreConformanceRunner HOST:PORT JQWIK-DATABASE [CLASS-PATTERN]</pre>
 *
 * With a class pattern (a regular expression on the behaviour classes' simple names), only the
 * classes it matches run.
 *
 * Prints one line per test and a last line {@code N passed, N failed, N skipped}; exits 0 iff
 * nothing failed.
 */
public final class CoreConformanceRunner {
    private CoreConformanceRunner() {}

    public static void main(String[] args) {
        if (args.length != 2 && args.length != 3) {
            System.err.println("usage: CoreConformanceRunner HOST:PORT JQWIK-DATABASE [CLASS-PATTERN]");
            System.exit(2);
        }
        System.setProperty(Profile.CORE.property(), args[0]);
        int failed;
        try {
            failed = run(Path.of(args[1]), args.length == 3 ? args[2] : ".*");
        } finally {
            ProviderClient.closeAll();
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    /**
     * Runs the suite against {@code target} in a child JVM on this JVM's class path, its output in
     * {@code report} and jqwik's failure database beside it (runs may go on at the same time);
     * returns its exit code.
     */
    public static int runInOwnJvm(String target, Path report) throws Exception {
        return runInOwnJvm(target, report, ".*");
    }

    /**
     * As {@link #runInOwnJvm(String, Path)}, with only the behaviour classes whose simple names match
     * {@code classes}.
     */
    public static int runInOwnJvm(String target, Path report, String classes) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ChildJvmClassData.QUICK_START);
        command.addAll(ChildJvmClassData.options());
        command.add("-cp");
        command.add(ChildJvmClassData.classPath());
        command.add(CoreConformanceRunner.class.getName());
        command.add(target);
        command.add(
                report.resolveSibling(report.getFileName() + ".jqwik-database").toString());
        command.add(classes);
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(report.toFile())
                .start();
        if (!p.waitFor(20, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("the conformance suite did not finish within 20 minutes; see " + report);
        }
        return p.exitValue();
    }

    private static int run(Path jqwikDatabase, String classes) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectPackage("dev.bigfleet.proxmox.conformance.behaviour"))
                .filters(
                        excludeClassNamePatterns(".*Durability.*"),
                        includeClassNamePatterns(
                                "dev\\.bigfleet\\.proxmox\\.conformance\\.behaviour\\.(" + classes + ")"))
                .configurationParameter("jqwik.database", jqwikDatabase.toString())
                .configurationParameter("jqwik.reporting.onlyfailures", "true")
                .build();
        SuiteTally tally = new SuiteTally();
        LauncherFactory.create().execute(request, tally);
        return tally.report();
    }
}
