package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.server.ExternalTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
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
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium, headless, driven by chromedriver, with a throwaway profile, in the time zone
 * the test picks (so a page's UTC and local times differ).
 */
final class HeadlessChromium implements AutoCloseable {
    final ChromeDriver driver;
    private final Path profile;

    /** @param timeZone the browser's local time zone (TZ), e.g. {@code Asia/Tokyo} */
    HeadlessChromium(String timeZone) throws Exception {
        Path chromium = ExternalTools.require("chromium", "chromium-browser");
        Path chromedriver = ExternalTools.require("chromedriver");
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
                .usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort()
                .withEnvironment(Map.of("TZ", timeZone))
                .build();
        driver = new ChromeDriver(service, options);
    }

    void open(String url) {
        driver.get(url);
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /**
     * The text of the element {@code css} matches now: the page re-renders its tables on every
     * refresh, so an element replaced between the lookup and the read is looked up again.
     */
    String text(String css) {
        return waiting(Duration.ofSeconds(5)).until(d -> find(css).getText());
    }

    /** Clicks the element {@code css} matches now, looking it up again when a refresh replaced it first. */
    void click(String css) {
        waiting(Duration.ofSeconds(5)).until(d -> {
            find(css).click();
            return true;
        });
    }

    Object script(String js, Object... args) {
        return driver.executeScript(js, args);
    }

    /** Waits, polling every 50 ms; the page re-renders rows on every change, so stale elements are retried. */
    WebDriverWait waiting(Duration timeout) {
        WebDriverWait wait = new WebDriverWait(driver, timeout);
        wait.pollingEvery(Duration.ofMillis(50));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    void screenshot(String name) throws Exception {
        Path shot = Path.of("target", name);
        Files.createDirectories(shot.getParent());
        Files.write(shot, driver.getScreenshotAs(OutputType.BYTES));
    }

    /**
     * From now on every page records the Content-Security-Policy violations it reports (its
     * {@code securitypolicyviolation} events), from before its own scripts run; {@link
     * #cspViolations} reads them.
     */
    void recordCspViolations() {
        driver.executeCdpCommand(
                "Page.addScriptToEvaluateOnNewDocument",
                Map.of(
                        "source",
                        "window.__cspViolations = [];"
                                + " document.addEventListener('securitypolicyviolation', (e) =>"
                                + " window.__cspViolations.push(e.effectiveDirective + ' ' + e.blockedURI));"));
    }

    /** The open page's CSP violations, each as "directive blocked-uri"; fails unless it records them. */
    List<String> cspViolations() {
        Object recorded = script("return window.__cspViolations === undefined ? null : window.__cspViolations.slice()");
        if (!(recorded instanceof List<?> violations)) {
            throw new IllegalStateException("the page records no CSP violations: recordCspViolations() before open()");
        }
        return violations.stream().map(String::valueOf).toList();
    }

    /** Console errors the page logged since the last call. */
    List<LogEntry> consoleErrors() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                .toList();
    }

    @Override
    public void close() throws java.io.IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
