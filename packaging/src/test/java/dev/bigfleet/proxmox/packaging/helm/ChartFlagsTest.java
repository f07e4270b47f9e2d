package dev.bigfleet.proxmox.packaging.helm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.packaging.Commands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every flag the provider takes, and every option of every backend it ships, is named in the
 * chart's values.yaml, with its default: a flag added to the provider fails here until the chart
 * says how to set it (a value of its own, or a line in the {@code flags} or {@code backendOptions}
 * list).
 */
class ChartFlagsTest {
    private static final Pattern SERVER_FLAG =
            Pattern.compile("^\\s+(?:-\\w, )?--([a-z][a-z0-9-]*)", Pattern.MULTILINE);
    private static final Pattern BACKEND_OPTION =
            Pattern.compile("^ {6}([a-z][a-z0-9-]*)(?:=VALUE)?  \\(", Pattern.MULTILINE);
    private static final Set<String> NOT_FOR_A_CHART = Set.of("help", "version");

    @Test
    void valuesNameEveryFlagAndEveryBackendOption() throws IOException {
        String help = Commands.run(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.bigfleet.proxmox.server.ProviderMain",
                        "--help"))
                .ok()
                .output();
        int backends = help.indexOf("\nBackends");
        assertThat(backends).as("--help lists the backends").isPositive();

        Set<String> names = new TreeSet<>();
        Matcher flags = SERVER_FLAG.matcher(help.substring(0, backends));
        while (flags.find()) {
            names.add(flags.group(1));
        }
        Matcher options = BACKEND_OPTION.matcher(help.substring(backends));
        while (options.find()) {
            names.add(options.group(1));
        }
        names.removeAll(NOT_FOR_A_CHART);
        assertThat(names).contains("addr", "state", "failed-retention", "api-url", "token-file", "latency");

        String values = Files.readString(HelmChartTest.CHART.resolve("values.yaml"));
        assertThat(names)
                .as("named in values.yaml")
                .allSatisfy(
                        name -> assertThat(values).containsPattern("(?<![a-z-])" + Pattern.quote(name) + "(?![a-z-])"));
    }
}
