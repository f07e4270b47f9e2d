package dev.bigfleet.proxmox.server.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.testing.ChildJvmClassData;
import dev.bigfleet.proxmox.testing.TestingPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite's durable behaviours (B1001–B1007) on PostgreSQL state: the provider runs
 * as a replica on a real PostgreSQL server, is SIGKILLed and started again on the same database.
 * The suite runs in a child JVM ({@link DurableConformanceRunner}), because its targets are
 * resolved once per JVM and this build's own run already uses an SQLite file.
 */
@Tag("conformance")
class PostgresDurabilityTest {
    @Test
    void durableBehavioursPassOnPostgresql() throws Exception {
        TestingPostgres postgres = TestingPostgres.shared();
        String db = postgres.createDatabase();
        Path report = Path.of("target", "postgresql-durability.txt").toAbsolutePath();
        Files.createDirectories(report.getParent());
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-D" + DurableProvider.STATE_PROPERTY + "=" + postgres.stateUrl(db));
        command.add("-D" + DurableProvider.PASSWORD_PROPERTY + "=" + postgres.passwordFile());
        command.addAll(ChildJvmClassData.QUICK_START);
        command.addAll(ChildJvmClassData.options());
        command.add("-cp");
        command.add(ChildJvmClassData.classPath());
        command.add(DurableConformanceRunner.class.getName());
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(report.toFile())
                .start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("the durable behaviours did not finish within 10 minutes; see " + report);
        }
        List<String> lines = Files.readAllLines(report, StandardCharsets.UTF_8);
        List<String> summary = lines.stream()
                .filter(l -> l.matches("\\d+ passed, \\d+ failed, \\d+ skipped"))
                .toList();
        assertThat(lines.stream().filter(l -> l.startsWith("FAILED ")))
                .as("failures (full report: %s)", report)
                .isEmpty();
        assertThat(summary).as("summary in %s", report).containsExactly("7 passed, 0 failed, 0 skipped");
        assertThat(p.exitValue()).isZero();
    }
}
