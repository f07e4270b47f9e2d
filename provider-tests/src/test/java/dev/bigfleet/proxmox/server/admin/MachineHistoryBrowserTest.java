package dev.bigfleet.proxmox.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;

/**
 * A machine's detail view in headless Chromium after a restart on {@code --state}: the operations the
 * first process ran, newest first, with kind, operation id, start and end in UTC, outcome and error,
 * as the state store kept them; opened from the failures list and from a bookmarked address.
 */
@Tag("browser")
class MachineHistoryBrowserTest {
    private static final String WALKED = "proxmox/OnDemand/pve.large/pve-a/000";
    private static final String FAILED = "proxmox/OnDemand/pve.large/pve-a/001";

    @TempDir
    Path dir;

    private HeadlessChromium browser;

    @AfterEach
    void stop() throws Exception {
        if (browser != null) {
            browser.close();
        }
    }

    private static String[] flags(Path state) {
        return new String[] {"--seed-count", "8", "--fake-latency", "0s", "--fake-faults", "--state", state.toString()};
    }

    private List<WebElement> operations() {
        return browser.all("#operations-table tbody tr[data-operation]");
    }

    private List<String> cells(WebElement row) {
        return row.findElements(org.openqa.selenium.By.tagName("td")).stream()
                .map(WebElement::getText)
                .toList();
    }

    @Test
    void theDetailViewShowsTheOperationsAPreviousProcessRanAfterARestart() throws Exception {
        Path state = dir.resolve("state.db");
        try (TestingProvider first =
                TestingProvider.builder().flags(flags(state)).build()) {
            first.client().create(WALKED);
            first.client().awaitState(WALKED, MachineState.MACHINE_STATE_IDLE);
            first.client().configure(WALKED, "prod-1", new byte[] {1});
            first.client().awaitState(WALKED, MachineState.MACHINE_STATE_CONFIGURED);
            first.client().drain(WALKED);
            first.client().awaitState(WALKED, MachineState.MACHINE_STATE_IDLE);
            first.client().create(FAILED);
            first.client().awaitState(FAILED, MachineState.MACHINE_STATE_IDLE);
            first.client().configure(FAILED, "fault-error", new byte[] {1});
            first.client().awaitState(FAILED, MachineState.MACHINE_STATE_FAILED);
        }
        try (TestingProvider second =
                TestingProvider.builder().flags(flags(state)).build()) {
            browser = new HeadlessChromium("UTC");
            browser.open(second.baseUrl() + "/admin/?machine=" + URLEncoder.encode(WALKED, StandardCharsets.UTF_8));
            browser.waiting(Duration.ofSeconds(15)).until(d -> operations().size() == 3);
            assertThat(browser.find("#detail").isDisplayed()).isTrue();
            assertThat(browser.text("#detail-id")).isEqualTo(WALKED);
            assertThat(browser.text("#detail-fields")).contains("IDLE").contains("pve.large");
            List<WebElement> ops = operations();
            assertThat(ops).extracting(r -> cells(r).get(0)).containsExactly("drain", "configure", "create");
            assertThat(ops).extracting(r -> r.getAttribute("data-outcome")).containsOnly("success");
            List<String> drain = cells(ops.get(0));
            assertThat(drain.get(1)).matches("op-\\d+");
            assertThat(drain.get(2)).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC");
            assertThat(drain.get(3)).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC");
            assertThat(drain.get(5)).isEqualTo("success");
            assertThat(drain.get(6)).isEmpty();

            // the failed machine, opened from the failures list without leaving the page
            Object origin = browser.script("return performance.timeOrigin");
            browser.waiting(Duration.ofSeconds(10))
                    .until(d ->
                            !browser.all("#failures li[data-id] a.machine-link").isEmpty());
            browser.click("#failures li[data-id] a.machine-link");
            browser.waiting(Duration.ofSeconds(10))
                    .until(d -> browser.text("#detail-id").equals(FAILED)
                            && operations().size() == 2);
            List<String> configure = cells(operations().get(0));
            assertThat(configure.get(0)).isEqualTo("configure");
            assertThat(configure.get(5)).isEqualTo("error");
            assertThat(configure.get(6)).contains("injected fault");
            assertThat(cells(operations().get(1)).get(5)).isEqualTo("success");
            assertThat(browser.find("#detail-failure").isDisplayed()).isTrue();
            assertThat(browser.text("#detail-failure")).contains("Failed in configure");
            assertThat(String.valueOf(browser.script("return location.search")))
                    .isEqualTo("?machine=" + URLEncoder.encode(FAILED, StandardCharsets.UTF_8));
            assertThat(browser.script("return performance.timeOrigin"))
                    .as("no reload")
                    .isEqualTo(origin);
            browser.screenshot("admin-machine-detail.png");

            browser.driver.navigate().back();
            browser.waiting(Duration.ofSeconds(10))
                    .until(d -> browser.text("#detail-id").equals(WALKED));
            browser.click("#detail-close");
            assertThat(browser.find("#detail").isDisplayed()).isFalse();
            assertThat(String.valueOf(browser.script("return location.search"))).isEmpty();
            assertThat(browser.consoleErrors()).isEmpty();
        }
    }
}
