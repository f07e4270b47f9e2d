package dev.bigfleet.proxmox.server.preflight;

import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** The provider flags preflight's tests run with: one instance type, offered on some nodes, and the setup kit's hooks. */
final class PreflightSetup {
    static final String HOOKS = "/usr/local/lib/bigfleet/";

    private static final AtomicInteger PROVIDERS = new AtomicInteger();

    private PreflightSetup() {}

    /**
     * The provider's flags for {@code on} (a label of their own, so no run sees another's VMs): one
     * instance type of {@code template}, offered on {@code nodes}, and the setup kit's hooks unless
     * {@code more} names others.
     */
    static List<String> flags(
            Path dir, TestingProxmoxCluster on, String type, int template, List<String> nodes, String... more)
            throws IOException {
        StringBuilder offerings = new StringBuilder("[");
        for (String node : nodes) {
            offerings
                    .append(offerings.length() > 1 ? "," : "")
                    .append("{\"instance_type\":\"")
                    .append(type)
                    .append("\",\"zone\":\"")
                    .append(node)
                    .append("\",\"count\":4,\"resources\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}");
        }
        Path o = Files.writeString(dir.resolve("offerings.json"), offerings + "]");
        Path t = Files.writeString(
                dir.resolve("types.json"),
                "{\"" + type + "\": {\"vcpu\": 1, \"memory_mib\": 1024, \"template_vmid\": " + template + "}}");
        List<String> args = new ArrayList<>(on.providerFlags());
        args.addAll(List.of(
                "--provider",
                "preflight" + ProcessHandle.current().pid() + "-" + PROVIDERS.incrementAndGet(),
                "--offerings",
                o.toString(),
                "--instance-types",
                t.toString()));
        List<String> given = List.of(more);
        for (String hook : List.of("bootstrap", "ready", "drain")) {
            if (!given.contains("--" + hook + "-exec")) {
                args.addAll(List.of("--" + hook + "-exec", "/bin/sh," + HOOKS + hook + "-hook.sh"));
            }
        }
        args.addAll(given);
        return args;
    }
}
