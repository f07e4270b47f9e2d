package dev.bigfleet.proxmox.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.spi.ApiStatus;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An outage as the admin page shows it in headless Chromium: while the backend reports its Proxmox
 * API unreachable, a red banner names the error and since when, the header says unreachable, and no
 * node is shown online; once the API answers again the banner goes and the nodes are online.
 */
@Tag("browser")
class AdminPageOutageBrowserTest {
    private TestingProvider live;
    private HeadlessChromium browser;

    @AfterEach
    void stop() throws Exception {
        ApiOutageBackend.report = new ApiStatus(true, Instant.now(), Optional.empty(), false);
        if (browser != null) {
            browser.close();
        }
        if (live != null) {
            live.close();
        }
    }

    private String nodeStatuses() {
        return String.valueOf(
                browser.script("return Array.from(document.querySelectorAll('#nodes-table tbody tr td:nth-child(2)'))"
                        + ".map(c => c.textContent).join(',')"));
    }

    @Test
    void anUnreachableApiShowsARedBannerWithTheErrorAndSinceWhenAndNodesUnknown() throws Exception {
        Instant down = Instant.now().minus(Duration.ofMinutes(3)).truncatedTo(ChronoUnit.SECONDS);
        String error = "GET /api2/json/nodes: connect to 127.0.0.1:8006 failed: Connection refused";
        ApiOutageBackend.report = new ApiStatus(false, down, Optional.of(error), true);
        live = TestingProvider.builder()
                .backend("api-outage")
                .flags("--seed-count", "4")
                .build();
        browser = new HeadlessChromium("UTC");
        browser.open(live.baseUrl() + "/admin/");

        browser.waiting(Duration.ofSeconds(15))
                .until(d -> browser.find("#outage").isDisplayed());
        assertThat(browser.find("#outage").getCssValue("background-color")).isEqualTo("rgba(185, 28, 28, 1)");
        assertThat(browser.text("#outage"))
                .contains("Proxmox API unreachable")
                .contains(error)
                .contains("since " + down.toString().replace('T', ' ').replace("Z", " UTC"))
                .contains("circuit breaker is open");
        assertThat(browser.text("#outage-since")).matches("since .+ UTC \\(3m \\d+s ago\\):");
        assertThat(browser.text("#api-status")).isEqualTo("unreachable");
        browser.waiting(Duration.ofSeconds(15)).until(d -> nodeStatuses().equals("unknown,unknown"));
        assertThat(browser.text("#nodes-table tbody")).doesNotContain("online");
        browser.screenshot("admin-page-outage.png");

        ApiOutageBackend.report = new ApiStatus(true, Instant.now(), Optional.empty(), false);
        browser.waiting(Duration.ofSeconds(15))
                .until(d -> !browser.find("#outage").isDisplayed());
        assertThat(browser.text("#api-status")).isEqualTo("reachable");
        browser.waiting(Duration.ofSeconds(20)).until(d -> nodeStatuses().equals("online,online"));
        assertThat(browser.consoleErrors()).isEmpty();
    }
}
