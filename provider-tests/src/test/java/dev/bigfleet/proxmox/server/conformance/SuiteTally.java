package dev.bigfleet.proxmox.server.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Counts the tests of a suite run by outcome and prints one line per test with how long it took; a
 * failing container counts as a failure so it cannot pass silently.
 */
public final class SuiteTally implements TestExecutionListener {
    private final List<String> failures = new ArrayList<>();
    private int passed;
    private int skipped;
    private final Map<String, Long> started = new ConcurrentHashMap<>();

    /** Prints the failures and a last line {@code N passed, N failed, N skipped}; returns the failures. */
    public int report() {
        failures.forEach(System.out::println);
        System.out.println(passed + " passed, " + failures.size() + " failed, " + skipped + " skipped");
        return failures.size();
    }

    @Override
    public void executionStarted(TestIdentifier test) {
        started.put(test.getUniqueId(), System.nanoTime());
    }

    /** " (N.N s)": how long the test ran. */
    private String took(TestIdentifier test) {
        Long t0 = started.remove(test.getUniqueId());
        return t0 == null ? "" : String.format(Locale.ROOT, " (%.1f s)", (System.nanoTime() - t0) / 1e9);
    }

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        if (test.isTest()) {
            skipped++;
            System.out.println("SKIP  " + test.getDisplayName() + ": " + reason);
        }
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        switch (result.getStatus()) {
            case SUCCESSFUL -> {
                if (test.isTest()) {
                    passed++;
                    System.out.println("PASS  " + test.getDisplayName() + took(test));
                }
            }
            case ABORTED -> {
                if (test.isTest()) {
                    skipped++;
                    System.out.println("SKIP  " + test.getDisplayName() + reason(result) + took(test));
                }
            }
            case FAILED -> {
                System.out.println("FAIL  " + test.getDisplayName() + took(test));
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
