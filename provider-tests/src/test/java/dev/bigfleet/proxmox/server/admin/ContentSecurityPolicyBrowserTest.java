package dev.bigfleet.proxmox.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The admin page under its Content-Security-Policy, in Debian's headless Chromium: the policy names
 * no origin but the page's own and allows no inline code; the page does all it does (tables,
 * filters, a live change, a machine's detail view) without one violation; and the same browser does
 * report a violation, and refuses, when the page is made to run inline script, reach another origin
 * or write markup into the document.
 */
@Tag("browser")
class ContentSecurityPolicyBrowserTest {
    private static final String MACHINE = "proxmox/OnDemand/pve.large/pve-a/000";

    private TestingProvider live;
    private HeadlessChromium browser;

    @BeforeEach
    void start() throws Exception {
        live = TestingProvider.builder().seedCount(8).fakeLatency(Duration.ZERO).build();
        browser = new HeadlessChromium("UTC");
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

    private int rows() {
        return browser.all("#machines-table tbody tr[data-id]").size();
    }

    @Test
    void thePolicyAllowsOnlyThePagesOwnOriginAndNoInlineCode() throws Exception {
        for (String path : List.of("/admin/", "/admin/app.js", "/admin/app.css", "/admin/favicon.svg")) {
            HttpResponse<String> r = live.get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            String csp = r.headers().firstValue("Content-Security-Policy").orElseThrow();
            assertThat(csp)
                    .as(path)
                    .contains("default-src 'none'")
                    .contains("script-src 'self';")
                    .contains("style-src 'self';")
                    .contains("connect-src 'self';")
                    .contains("frame-ancestors 'none'")
                    .contains("require-trusted-types-for 'script'")
                    .doesNotContain("unsafe")
                    .doesNotContain("*")
                    .doesNotContain("http")
                    .doesNotContain("data:");
        }
    }

    @Test
    void thePageDoesAllItDoesWithoutAViolation() throws Exception {
        browser.open(live.baseUrl() + "/admin/");
        browser.waiting(Duration.ofSeconds(15)).until(d -> rows() == 8);
        browser.waiting(Duration.ofSeconds(15))
                .until(d -> browser.all("#nodes-table tbody tr").size() == 2);

        live.client().create(MACHINE);
        live.client().awaitState(MACHINE, MachineState.MACHINE_STATE_IDLE);
        browser.waiting(Duration.ofSeconds(10))
                .until(d -> browser.text("#stat-holding").equals("1"));
        browser.click("#machines-table tbody tr[data-id=\"" + MACHINE + "\"] a");
        browser.waiting(Duration.ofSeconds(10))
                .until(d -> browser.all("#operations-table tbody tr").size() == 1);
        assertThat(browser.text("#detail-id")).isEqualTo(MACHINE);
        browser.click("#detail-close");
        browser.find("#filter-q").sendKeys("pve.large/pve-a/000\n");
        browser.waiting(Duration.ofSeconds(5)).until(d -> rows() == 1);

        assertThat(browser.cspViolations()).isEmpty();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    /**
     * The check above can fail: this browser refuses, and reports, what the policy forbids. A string
     * never becomes script or markup (Trusted Types throw before script-src is even asked), and no
     * other origin is reached.
     */
    @Test
    void inlineScriptMarkupSinksAndOtherOriginsAreRefusedAndReported() throws Exception {
        browser.open(live.baseUrl() + "/admin/");
        browser.waiting(Duration.ofSeconds(15)).until(d -> rows() == 8);
        assertThat(browser.cspViolations()).isEmpty();

        Object outcomes =
                browser.script("const attempt = (f) => { try { f(); return 'done'; } catch (e) { return e.name; } };"
                        + " return ["
                        + "  attempt(() => { const s = document.createElement('script');"
                        + "    s.textContent = 'window.__ranInline = true'; document.head.appendChild(s); }),"
                        + "  attempt(() => { const s = document.createElement('script');"
                        + "    s.src = 'https://example.com/tracker.js'; document.head.appendChild(s); }),"
                        + "  attempt(() => document.body.insertAdjacentHTML('beforeend', '<b id=injected>x</b>')),"
                        + "  attempt(() => { fetch('https://example.com/collect').catch(() => {}); }),"
                        + "  attempt(() => { new Image().src = 'https://example.com/pixel.png'; }),"
                        + "  attempt(() => { const l = document.createElement('link'); l.rel = 'stylesheet';"
                        + "    l.href = 'https://example.com/theme.css'; document.head.appendChild(l); })"
                        + " ];");
        assertThat(outcomes)
                .as("inline script, a script from elsewhere, markup, then requests to another origin")
                .isEqualTo(List.of("TypeError", "TypeError", "TypeError", "done", "done", "done"));

        browser.waiting(Duration.ofSeconds(10))
                .until(d -> browser.cspViolations().size() >= 6);
        assertThat(browser.cspViolations())
                .filteredOn(v -> v.startsWith("require-trusted-types-for "))
                .hasSize(3);
        assertThat(browser.cspViolations())
                .contains(
                        "connect-src https://example.com/collect",
                        "img-src https://example.com/pixel.png",
                        "style-src-elem https://example.com/theme.css");
        assertThat(browser.script("return window.__ranInline === undefined && !document.getElementById('injected')"))
                .as("nothing ran, nothing was written")
                .isEqualTo(true);
    }
}
