package dev.bigfleet.proxmox.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.TemplateSpec;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The admin page in Debian's headless Chromium over the real backend and the Proxmox API simulator,
 * where the cluster itself changes under the provider: a node in HA maintenance mode is shown as
 * taking no new VMs, with the reason, until it leaves maintenance; and after a restart on a lost
 * state file the page lists the machines that were rebuilt from their VMs, and what each became.
 */
@Tag("browser")
class AdminPageOnSimulatorBrowserTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    /** The page reads the nodes every 10 s, the backend keeps a reading for 5 s. */
    private static final Duration NODES_SEEN = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private static TestingProvider.Builder provider(TestingProxmoxCluster cluster) {
        return TestingProvider.builder().proxmox(cluster).seedCount(4);
    }

    private static WebElement nodeRow(HeadlessChromium browser, String node) {
        return browser.find("#nodes-table tbody tr[data-node='" + node + "']");
    }

    private static boolean unschedulable(HeadlessChromium browser, String node) {
        return "true".equals(nodeRow(browser, node).getAttribute("data-unschedulable"));
    }

    @Test
    void aMachinesStaticAddressAndAChangedTemplateShowUnderItsHost() throws Exception {
        Path types = Files.writeString(
                dir.resolve("types.json"),
                "{\"pve.small\": {\"vcpu\": 2, \"memory_mib\": 4096, \"template_vmid\": 9000,"
                        + " \"networks\": [{\"bridge\": \"vmbr0\", \"addresses\": {\"cidr\": \"10.20.0.0/24\","
                        + " \"range\": \"10.20.0.10-10.20.0.20\", \"gateway\": \"10.20.0.1\"}}]}}");
        String id = "proxmox/OnDemand/pve.small/pve1/000";
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                        .roomy()
                        .nodes("pve1", "pve2")
                        .template(TemplateSpec.of(TestingProxmoxCluster.TEMPLATE, "pve1")
                                .withCloudInit())
                        .start();
                TestingProvider live = provider(cluster)
                        .flags("--instance-types", types.toString())
                        .build();
                HeadlessChromium browser = new HeadlessChromium("UTC")) {
            live.client().create(id);
            live.client().awaitState(id, MachineState.MACHINE_STATE_IDLE);
            cluster.simulator().faults().setConfigKeyNotHotplugged(TestingProxmoxCluster.TEMPLATE, "cores", "4");
            browser.recordCspViolations();
            browser.open(live.baseUrl() + "/admin/");
            String row = "#machines-table tbody tr[data-id='" + id + "']";
            browser.waiting(Duration.ofSeconds(15))
                    .until(d -> !browser.all(row + " .addresses").isEmpty());
            assertThat(browser.text(row + " .addresses")).isEqualTo("10.20.0.10/24");
            WebElement drift = browser.find(row + " .drift");
            assertThat(drift.getText()).isEqualTo("template changed");
            assertThat(drift.getAttribute("title")).isEqualTo("template 9000 changed since the clone");
            assertThat(browser.cspViolations())
                    .as("Content-Security-Policy violations")
                    .isEmpty();
        }
    }

    @Test
    void aNodeInMaintenanceIsShownTakingNoNewVmsUntilItLeavesIt() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                        .roomy()
                        .nodes("pve1", "pve2")
                        .start();
                TestingProvider live = provider(cluster).build();
                HeadlessChromium browser = new HeadlessChromium("UTC")) {
            browser.recordCspViolations();
            browser.open(live.baseUrl() + "/admin/");
            browser.waiting(Duration.ofSeconds(15))
                    .until(d -> browser.all("#nodes-table tbody tr[data-node]").size() == 2);
            assertThat(unschedulable(browser, "pve1")).isFalse();
            assertThat(unschedulable(browser, "pve2")).isFalse();

            cluster.simulator().faults().nodeMaintenance("pve2", true);
            browser.waiting(NODES_SEEN).until(d -> unschedulable(browser, "pve2"));
            WebElement status = nodeRow(browser, "pve2").findElement(By.cssSelector("td:nth-child(2)"));
            assertThat(status.getText()).isEqualTo("online · no new VMs");
            assertThat(status.getAttribute("title")).contains("maintenance mode");
            assertThat(unschedulable(browser, "pve1"))
                    .as("the other node still takes VMs")
                    .isFalse();

            cluster.simulator().faults().nodeMaintenance("pve2", false);
            browser.waiting(NODES_SEEN).until(d -> !unschedulable(browser, "pve2"));
            assertThat(browser.text("#nodes-table tbody tr[data-node='pve2'] td:nth-child(2)"))
                    .isEqualTo("online");
            assertThat(browser.cspViolations())
                    .as("Content-Security-Policy violations")
                    .isEmpty();
        }
    }

    @Test
    void afterALostStateFileThePageListsTheMachinesRebuiltFromTheirVms() throws Exception {
        Path state = dir.resolve("state.db");
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                .roomy()
                .nodes("pve1", "pve2")
                .latency(Duration.ofMillis(20))
                .start()) {
            List<String> ids;
            try (TestingProvider live = provider(cluster).sqliteState(state).build()) {
                LifecycleClient client = live.client();
                ids = client.list().stream()
                        .map(Machine::getId)
                        .sorted()
                        .limit(2)
                        .toList();
                ids.forEach(client::create);
                client.awaitAll(ids, MachineState.MACHINE_STATE_IDLE, WAIT);
                client.configure(ids.get(0), "prod-1", "#!/bin/sh\n".getBytes(StandardCharsets.UTF_8));
                client.awaitState(ids.get(0), MachineState.MACHINE_STATE_CONFIGURED, WAIT);
            }
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.getFileName().toString().startsWith("state.db"))
                        .toList()) {
                    Files.delete(f);
                }
            }

            try (TestingProvider live = provider(cluster).sqliteState(state).build();
                    HeadlessChromium browser = new HeadlessChromium("UTC")) {
                browser.recordCspViolations();
                browser.open(live.baseUrl() + "/admin/");
                browser.waiting(Duration.ofSeconds(15))
                        .until(d -> browser.find("#rebuild").isDisplayed()
                                && browser.all("#rebuild-table tbody tr").size() == 2);
                String table = browser.text("#rebuild-table tbody");
                assertThat(table).contains(ids.get(0)).contains(ids.get(1));
                List<String> rows = browser.all("#rebuild-table tbody tr").stream()
                        .map(WebElement::getText)
                        .toList();
                assertThat(rows.stream()
                                .filter(r -> r.contains(ids.get(0)))
                                .findFirst()
                                .orElseThrow())
                        .as("the bound VM came back configured")
                        .contains("configured");
                assertThat(rows.stream()
                                .filter(r -> r.contains(ids.get(1)))
                                .findFirst()
                                .orElseThrow())
                        .as("the unbound VM came back idle")
                        .contains("idle");
                assertThat(browser.text("#rebuild-when")).startsWith("at ");
                assertThat(browser.cspViolations())
                        .as("Content-Security-Policy violations")
                        .isEmpty();
            }
        }
    }
}
