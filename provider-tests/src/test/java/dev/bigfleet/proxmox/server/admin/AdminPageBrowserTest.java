package dev.bigfleet.proxmox.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The admin page in Debian's headless Chromium: it loads without console errors, lists the seeded
 * slots, filters on the server, shows a Create made over gRPC within 2 seconds without a reload; its
 * header names version, uptime, backend and API status with times in UTC (local time on hover); a
 * bookmarked address restores filters, sort and page; durations tick every second without a fetch.
 * Leaves a screenshot in {@code target/admin-page.png}.
 */
@Tag("browser")
class AdminPageBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern UTC = Pattern.compile("(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d) UTC");

    private TestingProvider live;
    private HeadlessChromium browser;

    @BeforeEach
    void start() throws Exception {
        live = TestingProvider.builder()
                .flags("--seed-count", "16", "--fake-latency", "300ms", "--prices", "pve.xlarge=0.09")
                .build();
        browser = new HeadlessChromium("Asia/Tokyo");
        browser.recordCspViolations();
    }

    @AfterEach
    void stop() throws Exception {
        if (browser != null) {
            browser.close();
        }
        if (live != null) {
            live.close();
        }
    }

    private List<WebElement> rows() {
        return browser.all("#machines-table tbody tr[data-id]");
    }

    private List<String> rowIds() {
        return rows().stream().map(r -> r.getAttribute("data-id")).toList();
    }

    private String rowState(String id) {
        Object state = browser.script(
                "const r = document.querySelector('#machines-table tbody tr[data-id=\"' + arguments[0] + '\"]');"
                        + " return r ? r.dataset.state : null;",
                id);
        return state == null ? null : state.toString();
    }

    @Test
    void showsTheInventoryFiltersItAndFollowsAGrpcCreateLive() throws Exception {
        browser.open(live.baseUrl() + "/admin/");
        browser.waiting(Duration.ofSeconds(15)).until(d -> rows().size() == 16);
        assertThat(browser.text("#stat-machines")).isEqualTo("16");
        assertThat(browser.all("#zone-chart .bar")).hasSize(2);
        assertThat(browser.all("#offerings-table tbody tr")).hasSize(4);
        browser.waiting(Duration.ofSeconds(15))
                .until(d -> browser.all("#nodes-table tbody tr").size() == 2);
        assertThat(browser.text("#nodes-table tbody")).contains("online");
        assertThat(browser.text("#nodes-table tbody tr td:nth-child(6)"))
                .as("storage used next to memory")
                .endsWith(" / 4096 GiB");
        assertThat(browser.text("#types-table")).contains("explicit").contains("synthetic");

        new Select(browser.find("#filter-zone")).selectByVisibleText("pve-b");
        browser.waiting(Duration.ofSeconds(5)).until(d -> rows().size() == 8);
        browser.find("#filter-q").sendKeys("xlarge");
        browser.waiting(Duration.ofSeconds(5)).until(d -> rows().size() == 4);
        assertThat(rowIds()).allSatisfy(id -> assertThat(id).contains("pve.xlarge/pve-b/"));
        browser.find("#filter-q").clear();
        new Select(browser.find("#filter-zone")).selectByVisibleText("any");
        browser.waiting(Duration.ofSeconds(5)).until(d -> rows().size() == 16);

        String id = "proxmox/OnDemand/pve.xlarge/pve-b/001";
        Object before = browser.script("return performance.timeOrigin");
        live.client().state(id); // the gRPC connection is up before the clock starts
        live.client().create(id);
        long created = System.nanoTime(); // the machine is CREATING from the moment Create answers
        browser.waiting(Duration.ofSeconds(2))
                .until(d -> "CREATING".equals(rowState(id)) || "IDLE".equals(rowState(id)));
        assertThat(Duration.ofNanos(System.nanoTime() - created)).isLessThanOrEqualTo(Duration.ofSeconds(2));
        assertThat(browser.script("return performance.timeOrigin"))
                .as("no reload")
                .isEqualTo(before);

        // a fuller picture for the screenshot: one machine configured, one failed slot, the summary caught up
        live.client().awaitState(id, MachineState.MACHINE_STATE_IDLE);
        live.client().configure(id, "prod-1", new byte[] {1, 2, 3});
        live.client().create("proxmox/OnDemand/pve.large/pve-a/000");
        browser.waiting(Duration.ofSeconds(10))
                .until(d -> browser.text("#stat-holding").equals("2"));
        browser.screenshot("admin-page.png");
        assertThat(browser.consoleErrors()).as("browser console errors").isEmpty();
        assertThat(browser.cspViolations())
                .as("Content-Security-Policy violations")
                .isEmpty();
    }

    @Test
    void theHeaderNamesVersionUptimeBackendAndApiStatusWithTimesInUtcAndLocalOnHover() throws Exception {
        JsonNode status = JSON.readTree(live.get("/api/v1/status").body());
        browser.open(live.baseUrl() + "/admin/");
        browser.waiting(Duration.ofSeconds(15))
                .until(d -> !browser.text("#version").equals("–"));
        assertThat(browser.text("#version")).isEqualTo(status.get("version").asText());
        assertThat(browser.text("#backend-name")).isEqualTo("fake");
        assertThat(browser.text("#provider-label")).isEqualTo("proxmox");
        assertThat(browser.text("#api-status")).isEqualTo("not reported");
        assertThat(browser.text("#last-reconcile")).isEqualTo("off"); // --reconcile-interval 0
        String uptime = browser.text("#uptime");
        assertThat(uptime).matches("(\\d+h )?(\\d+m )?\\d+s");
        browser.waiting(Duration.ofSeconds(5))
                .until(d -> !browser.text("#uptime").equals(uptime));

        browser.waiting(Duration.ofSeconds(15))
                .until(d -> !browser.all("#nodes-read time").isEmpty());
        WebElement read = browser.find("#nodes-read time");
        Matcher utc = UTC.matcher(read.getText());
        assertThat(utc.matches()).as("node list read at %s", read.getText()).isTrue();
        String local = read.getAttribute("title");
        assertThat(local).startsWith("your local time: ");
        // the browser runs in Tokyo: the local time on hover is nine hours ahead of the UTC shown
        LocalDateTime shown = LocalDateTime.parse(utc.group(1), DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
        LocalDateTime tokyo = shown.plusHours(9);
        assertThat(local)
                .containsAnyOf(
                        tokyo.format(DateTimeFormatter.ofPattern("h:mm:ss", Locale.ROOT)) + " ",
                        tokyo.format(DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT)));

        assertThat(browser.find("#facts abbr").getAttribute("title"))
                .contains("inventory revision")
                .contains("List cursors");
        assertThat(browser.text("#revision"))
                .isEqualTo(JSON.readTree(live.get("/api/v1/summary").body())
                        .get("revision")
                        .asText());
        assertThat(browser.text("#explain-density")).contains("Density is how many pods");
        assertThat(browser.find("th[data-sort=density]").getAttribute("title")).contains("allocatable");
        WebElement logo = browser.find(".brand img.logo");
        assertThat(logo.findElement(By.xpath("..")).getTagName()).isEqualTo("div");
        assertThat(browser.script("return arguments[0].naturalWidth > 0 && !arguments[0].closest('button, a')", logo))
                .as("the logo is a picture, not a control")
                .isEqualTo(true);
        assertThat(browser.consoleErrors()).isEmpty();
        assertThat(browser.cspViolations()).isEmpty();
    }

    @Test
    void aBookmarkedAddressRestoresFiltersSortSearchAndPage() throws Exception {
        browser.open(live.baseUrl() + "/admin/?zone=pve-b&instance_type=pve.xlarge&sort=id&order=desc&limit=25");
        browser.waiting(Duration.ofSeconds(15)).until(d -> rows().size() == 4);
        assertThat(rowIds()).allSatisfy(id -> assertThat(id).contains("pve.xlarge/pve-b/"));
        assertThat(rowIds()).isSortedAccordingTo((a, b) -> b.compareTo(a));
        assertThat(new Select(browser.find("#filter-zone"))
                        .getFirstSelectedOption()
                        .getText())
                .isEqualTo("pve-b");
        assertThat(new Select(browser.find("#filter-type"))
                        .getFirstSelectedOption()
                        .getText())
                .isEqualTo("pve.xlarge");
        assertThat(new Select(browser.find("#page-size"))
                        .getFirstSelectedOption()
                        .getText())
                .isEqualTo("25");
        assertThat(browser.find("th[data-sort=id]").getAttribute("class")).contains("sorted-desc");

        // a view built by hand lands in the address bar, and that address brings it back
        new Select(browser.find("#filter-type")).selectByVisibleText("any");
        browser.waiting(Duration.ofSeconds(5)).until(d -> rows().size() == 8);
        browser.click("th[data-sort=instance_type]");
        browser.find("#filter-q").sendKeys("pve.large/");
        browser.waiting(Duration.ofSeconds(5))
                .until(d ->
                        String.valueOf(browser.script("return location.search")).contains("q=pve.large"));
        new Select(browser.find("#page-size")).selectByVisibleText("25");
        browser.waiting(Duration.ofSeconds(5)).until(d -> rows().size() == 4);
        String address = browser.driver.getCurrentUrl();
        assertThat(address)
                .contains("zone=pve-b")
                .contains("sort=instance_type")
                .doesNotContain("order=desc")
                .contains("q=pve.large%2F")
                .contains("limit=25")
                .doesNotContain("instance_type=pve");
        List<String> shown = rowIds();

        browser.open("about:blank");
        browser.open(address);
        browser.waiting(Duration.ofSeconds(15)).until(d -> rows().size() == 4);
        assertThat(rowIds()).isEqualTo(shown);
        assertThat(browser.find("#filter-q").getAttribute("value")).isEqualTo("pve.large/");
        assertThat(new Select(browser.find("#filter-zone"))
                        .getFirstSelectedOption()
                        .getText())
                .isEqualTo("pve-b");
        assertThat(browser.find("th[data-sort=instance_type]").getAttribute("class"))
                .contains("sorted-asc");

        // paging is part of the address too
        browser.open(live.baseUrl() + "/admin/?limit=25&offset=10");
        browser.waiting(Duration.ofSeconds(15))
                .until(d -> browser.text("#page-info").equals("11–16 of 16"));
        assertThat(rows()).hasSize(6);
        assertThat(browser.consoleErrors()).isEmpty();
        assertThat(browser.cspViolations()).isEmpty();
    }

    @Test
    void durationsTickEverySecondWithoutAskingTheServer() throws Exception {
        browser.open(live.baseUrl() + "/admin/");
        browser.waiting(Duration.ofSeconds(15)).until(d -> rows().size() == 16);
        String first = "#machines-table tbody tr[data-id] td.in-state";
        long before = seconds(browser.text(first));
        Object fetches = browser.script(
                "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/v1/machines')).length");
        browser.waiting(Duration.ofSeconds(5)).until(d -> seconds(browser.text(first)) >= before + 2);
        assertThat(
                        browser.script(
                                "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/v1/machines')).length"))
                .as("no new fetch of the machine table: the page counts on its own")
                .isEqualTo(fetches);
        assertThat(browser.find(first + " span[data-since]").getAttribute("title"))
                .matches("since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC; your local time: .+");
    }

    /** "7s", "2m 5s", "1h 2m 5s" as seconds. */
    private static long seconds(String shown) {
        Matcher m = Pattern.compile("(?:(\\d+)h )?(?:(\\d+)m )?(\\d+)s").matcher(shown);
        assertThat(m.matches()).as("a duration: %s", shown).isTrue();
        return (m.group(1) == null ? 0 : Long.parseLong(m.group(1)) * 3600)
                + (m.group(2) == null ? 0 : Long.parseLong(m.group(2)) * 60)
                + Long.parseLong(m.group(3));
    }
}
