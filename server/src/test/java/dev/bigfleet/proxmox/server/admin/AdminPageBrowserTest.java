package dev.bigfleet.proxmox.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.server.ExternalTools;
import dev.bigfleet.proxmox.server.LiveProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The admin page in Debian's headless Chromium: it loads without console errors, lists the seeded
 * slots, filters on the server, and shows a Create made over gRPC within 2 seconds, without a
 * reload. Leaves a screenshot in {@code target/admin-page.png}.
 */
class AdminPageBrowserTest {
    private LiveProvider live;
    private ChromeDriver browser;
    private Path profile;

    @BeforeEach
    void start() throws Exception {
        Path chromium = ExternalTools.require("chromium", "chromium-browser");
        Path driver = ExternalTools.require("chromedriver");
        live = LiveProvider.start("--seed-count", "16", "--fake-latency", "300ms", "--prices", "pve.xlarge=0.09");
        profile = Files.createTempDirectory("chromium-profile");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.toFile());
        // headless Chromium as root in a container, with nothing reaching out to the network
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--user-data-dir=" + profile,
                "--window-size=1400,1800");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driver.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
    }

    @AfterEach
    void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (live != null) {
            live.close();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
    }

    private List<WebElement> rows() {
        return browser.findElements(By.cssSelector("#machines-table tbody tr[data-id]"));
    }

    private WebDriverWait waiting(Duration timeout) {
        WebDriverWait wait = new WebDriverWait(browser, timeout);
        wait.pollingEvery(Duration.ofMillis(50));
        wait.ignoring(StaleElementReferenceException.class); // the page re-renders rows on every change
        return wait;
    }

    @Test
    void showsTheInventoryFiltersItAndFollowsAGrpcCreateLive() throws Exception {
        browser.get(live.baseUrl() + "/admin/");
        waiting(Duration.ofSeconds(15)).until(d -> rows().size() == 16);
        assertThat(browser.findElement(By.id("stat-machines")).getText()).isEqualTo("16");
        assertThat(browser.findElements(By.cssSelector("#zone-chart .bar"))).hasSize(2);
        assertThat(browser.findElements(By.cssSelector("#offerings-table tbody tr")))
                .hasSize(4);
        waiting(Duration.ofSeconds(15))
                .until(d -> browser.findElements(By.cssSelector("#nodes-table tbody tr"))
                                .size()
                        == 2);
        assertThat(browser.findElement(By.cssSelector("#nodes-table tbody tr td:nth-child(6)"))
                        .getText())
                .as("storage used next to memory")
                .endsWith(" / 4096 GiB");
        assertThat(browser.findElement(By.id("types-table")).getText())
                .contains("explicit")
                .contains("synthetic");

        new Select(browser.findElement(By.id("filter-zone"))).selectByVisibleText("pve-b");
        waiting(Duration.ofSeconds(5)).until(d -> rows().size() == 8);
        browser.findElement(By.id("filter-q")).sendKeys("xlarge");
        waiting(Duration.ofSeconds(5)).until(d -> rows().size() == 4);
        assertThat(browser.executeScript("return Array.from(document.querySelectorAll('#machines-table tbody tr'))"
                        + ".every(r => r.dataset.id.includes('pve.xlarge/pve-b/'))"))
                .isEqualTo(true);
        browser.findElement(By.id("filter-q")).clear();
        new Select(browser.findElement(By.id("filter-zone"))).selectByVisibleText("any");
        waiting(Duration.ofSeconds(5)).until(d -> rows().size() == 16);

        String id = "proxmox/OnDemand/pve.xlarge/pve-b/001";
        Object before = browser.executeScript("return performance.timeOrigin");
        live.state(id); // the gRPC connection is up before the clock starts
        live.create(id);
        long created = System.nanoTime(); // the machine is CREATING from the moment Create answers
        waiting(Duration.ofSeconds(2)).until(d -> {
            Object state = browser.executeScript(
                    "const r = document.querySelector("
                            + "'#machines-table tbody tr[data-id=\"' + arguments[0] + '\"]'); return r ? r.dataset.state : null;",
                    id);
            return "CREATING".equals(state) || "IDLE".equals(state);
        });
        assertThat(Duration.ofNanos(System.nanoTime() - created)).isLessThanOrEqualTo(Duration.ofSeconds(2));
        assertThat(browser.executeScript("return performance.timeOrigin"))
                .as("no reload")
                .isEqualTo(before);

        // a fuller picture for the screenshot: one machine configured and the summary caught up
        live.awaitState(id, dev.bigfleet.proxmox.proto.v1alpha1.MachineState.MACHINE_STATE_IDLE);
        live.configure(id, "prod-1", new byte[] {1, 2, 3});
        live.create("proxmox/OnDemand/pve.large/pve-a/000");
        waiting(Duration.ofSeconds(10))
                .until(d -> browser.findElement(By.id("stat-holding")).getText().equals("2"));
        Path shot = Path.of("target", "admin-page.png");
        Files.createDirectories(shot.getParent());
        Files.write(shot, browser.getScreenshotAs(OutputType.BYTES));

        List<LogEntry> errors = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                .toList();
        assertThat(errors).as("browser console errors").isEmpty();
    }
}
