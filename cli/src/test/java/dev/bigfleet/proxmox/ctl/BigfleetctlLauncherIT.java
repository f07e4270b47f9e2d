package dev.bigfleet.proxmox.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.testing.TestingProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code bin/bigfleetctl} on the packaged jar, as a newcomer runs it. Runs after {@code package}. */
class BigfleetctlLauncherIT {
    private static final Path LAUNCHER =
            Path.of("..").toAbsolutePath().normalize().resolve("bin/bigfleetctl");

    private record Run(int exit, String out, String err) {}

    private static Run run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    @Test
    void listsCreatesAndReportsErrorsThroughTheLauncher() throws Exception {
        try (TestingProvider provider =
                TestingProvider.builder().seedCount(2).noHttp().build()) {
            String addr = provider.target();
            Run list = run("list", "--addr", addr);
            assertThat(list.exit()).as(list.err()).isZero();
            assertThat(list.out()).startsWith("ID ").contains("2 machines; cursor ");
            Run create = run("--addr", addr, "create", "proxmox/OnDemand/pve.large/pve-a/000");
            assertThat(create.exit()).as(create.err()).isZero();
            assertThat(create.out()).contains("CREATING");
            Run missing = run("--addr", addr, "get", "nope");
            assertThat(missing.exit()).isEqualTo(1);
            assertThat(missing.err()).startsWith("error: NOT_FOUND: ");
            Run version = run("--version");
            assertThat(version.out()).matches("bigfleetctl \\S+\\s*");
        }
    }
}
