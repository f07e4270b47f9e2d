package dev.bigfleet.proxmox.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The admin JSON API over real HTTP: content, filters, paging, deltas, read-only and secret-free. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdminApiTest {
    static final String TOKEN_SECRET = "pve-token-secret-7f3a9c1e-5d2b-4e8f-a6c0-91b7d3e5f2a4";
    static final String BLOB_SECRET = "kubeadm join --token abcdef.0123456789abcdef-BLOB-MARKER";
    private static final String IDLE = "proxmox/OnDemand/pve.large/pve-a/000";
    private static final String FAILED = "proxmox/OnDemand/pve.large/pve-a/001";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static TestingProvider live;

    @BeforeAll
    static void start() throws Exception {
        live = TestingProvider.builder()
                .flags(
                        "--seed-count",
                        "16",
                        "--fake-latency",
                        "0s",
                        "--fake-faults",
                        "--prices",
                        "pve.large=0.05",
                        "--proxmox-token-secret",
                        TOKEN_SECRET)
                .build();
        live.client().create(IDLE);
        live.client().awaitState(IDLE, MachineState.MACHINE_STATE_IDLE);
        live.client().configure(IDLE, "prod-1", BLOB_SECRET.getBytes(StandardCharsets.UTF_8));
        live.client().awaitState(IDLE, MachineState.MACHINE_STATE_CONFIGURED);
        live.client().create(FAILED);
        live.client().awaitState(FAILED, MachineState.MACHINE_STATE_IDLE);
        live.client().configure(FAILED, "fault-error", BLOB_SECRET.getBytes(StandardCharsets.UTF_8));
        live.client().awaitState(FAILED, MachineState.MACHINE_STATE_FAILED);
    }

    @AfterAll
    static void stop() throws Exception {
        live.close();
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = live.get(path);
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        return JSON.readTree(r.body());
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("items").forEach(m -> ids.add(m.get("id").asText()));
        return ids;
    }

    @Test
    void summaryCountsStatesPerZoneAndTheHourlyCostOfMachinesHoldingAVm() throws Exception {
        JsonNode s = get("/api/v1/summary");
        assertThat(s.get("provider").asText()).isEqualTo("proxmox");
        assertThat(s.get("backend").asText()).isEqualTo("fake");
        assertThat(s.get("machines").asInt()).isEqualTo(24);
        assertThat(s.get("holding_vm").asInt()).isEqualTo(2);
        assertThat(s.get("hourly_cost_usd").asDouble()).isEqualTo(0.10);
        assertThat(s.get("states").get("CONFIGURED").asInt()).isEqualTo(1);
        JsonNode zoneA = s.get("zones").get(0);
        assertThat(zoneA.get("zone").asText()).isEqualTo("pve-a");
        assertThat(zoneA.get("states").get("FAILED").asInt()).isEqualTo(1);
        assertThat(zoneA.get("states").get("SPECULATIVE").asInt()).isEqualTo(6);
    }

    @Test
    void machinesFilterSortAndPageOnTheServer() throws Exception {
        JsonNode all = get("/api/v1/machines?limit=5");
        assertThat(all.get("total").asInt()).isEqualTo(24);
        assertThat(all.get("items")).hasSize(5);
        assertThat(ids(all)).isSorted();

        JsonNode next = get("/api/v1/machines?limit=5&offset=5");
        assertThat(ids(next)).doesNotContainAnyElementsOf(ids(all));

        JsonNode failed = get("/api/v1/machines?state=FAILED");
        assertThat(ids(failed)).containsExactly(FAILED);
        JsonNode row = failed.get("items").get(0);
        assertThat(row.get("last_error").asText()).contains("injected fault");
        assertThat(row.get("host").asText()).startsWith("pve-a/");
        assertThat(row.get("density").asLong()).isEqualTo(8);
        assertThat(row.get("price_per_hour").asDouble()).isEqualTo(0.05);
        assertThat(row.get("time_in_state_seconds").isNumber()).isTrue();

        assertThat(get("/api/v1/machines?zone=pve-b&instance_type=pve.xlarge")
                        .get("total")
                        .asInt())
                .isEqualTo(4);
        assertThat(ids(get("/api/v1/machines?q=PROD-1"))).containsExactly(IDLE);
        assertThat(ids(get("/api/v1/machines?q=pve-a/1"))).hasSize(2); // the two hosts on pve-a
        JsonNode byState = get("/api/v1/machines?sort=state&order=desc&limit=1");
        assertThat(ids(byState)).containsExactly(FAILED);
        assertThat(live.get("/api/v1/machines?sort=nope").statusCode()).isEqualTo(400);
        assertThat(live.get("/api/v1/machines?limit=100000").statusCode()).isEqualTo(400);
    }

    @Test
    void offeringsTypesNodesAndFailures() throws Exception {
        JsonNode offerings = get("/api/v1/offerings");
        JsonNode largeA = offerings.get(0);
        assertThat(largeA.get("instance_type").asText()).isEqualTo("pve.large");
        assertThat(largeA.get("zone").asText()).isEqualTo("pve-a");
        assertThat(largeA.get("count").asInt()).isEqualTo(4);
        assertThat(largeA.get("holding_vm").asInt()).isEqualTo(2);
        assertThat(largeA.get("free").asInt()).isEqualTo(2);
        assertThat(largeA.get("used").asInt())
                .as("FAILED is not counted as used")
                .isEqualTo(1);
        assertThat(largeA.get("failed").asInt()).isEqualTo(1);

        JsonNode types = get("/api/v1/instance-types");
        assertThat(types).hasSize(4);
        types.forEach(t -> assertThat(t.get("price_source").asText())
                .isEqualTo(t.get("name").asText().equals("pve.large") ? "explicit" : "synthetic"));

        JsonNode nodes = get("/api/v1/nodes");
        JsonNode pveA = nodes.get("nodes").get(0);
        assertThat(pveA.get("name").asText()).isEqualTo("pve-a");
        assertThat(pveA.get("online").asBoolean()).isTrue();
        assertThat(pveA.get("status").asText()).isEqualTo("online");
        assertThat(pveA.get("vms").asInt()).isEqualTo(2);
        assertThat(pveA.get("vcpu_allocated").asInt()).isEqualTo(16);
        assertThat(pveA.get("memory_total_bytes").asLong()).isPositive();
        assertThat(pveA.get("storage_total_bytes").asLong()).isEqualTo(4096L << 30);
        assertThat(pveA.get("storage_used_bytes").asLong())
                .as("the fake's 32 GiB disk per VM")
                .isEqualTo(64L << 30);

        JsonNode failures = get("/api/v1/failures");
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0).get("id").asText()).isEqualTo(FAILED);
    }

    @Test
    void oneMachineIsServedWithItsFailureAndItsOperationsNewestFirst() throws Exception {
        JsonNode failed = get("/api/v1/machines/" + FAILED);
        assertThat(failed.get("id").asText()).isEqualTo(FAILED);
        assertThat(failed.get("state").asText()).isEqualTo("FAILED");
        assertThat(failed.get("host").asText()).startsWith("pve-a/");
        assertThat(failed.get("proxmox_url").isNull())
                .as("the fake has no web UI")
                .isTrue();
        JsonNode failure = failed.get("failure");
        assertThat(failure.get("kind").asText()).isEqualTo("configure");
        assertThat(failure.get("cleanup_attempts").asInt()).isZero();
        assertThat(Instant.parse(failure.get("next_cleanup").asText()))
                .isEqualTo(Instant.parse(failure.get("failed_at").asText()).plus(Duration.ofMinutes(30)));
        JsonNode ops = failed.get("operations");
        assertThat(ops).hasSize(2);
        assertThat(ops.get(0).get("kind").asText()).isEqualTo("configure");
        assertThat(ops.get(0).get("outcome").asText()).isEqualTo("error");
        assertThat(ops.get(0).get("error").asText()).contains("injected fault");
        assertThat(ops.get(1).get("kind").asText()).isEqualTo("create");
        assertThat(ops.get(1).get("outcome").asText()).isEqualTo("success");
        assertThat(ops.get(1).get("operation_id").asText()).matches("op-\\d+");
        Instant started = Instant.parse(ops.get(1).get("started_at").asText());
        assertThat(Instant.parse(ops.get(1).get("ended_at").asText())).isAfterOrEqualTo(started);
        assertThat(ops.get(1).get("duration_seconds").asLong()).isNotNegative();

        JsonNode configured = get("/api/v1/machines/" + IDLE);
        assertThat(configured.get("failure").isNull()).isTrue();
        assertThat(configured.get("needs_attention").asBoolean()).isFalse();
        assertThat(configured.get("operations"))
                .extracting(
                        op -> op.get("kind").asText() + ":" + op.get("outcome").asText())
                .containsExactly("configure:success", "create:success");
        assertThat(get("/api/v1/machines/proxmox/OnDemand/pve.large/pve-b/003").get("operations"))
                .isEmpty();

        HttpResponse<String> unknown = live.get("/api/v1/machines/proxmox/OnDemand/nope/x/000");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.body()).get("error").asText())
                .isEqualTo("machine not found: proxmox/OnDemand/nope/x/000");
    }

    /**
     * A client library encodes a path segment, slashes included ({@code URLEncoder}, Python's
     * {@code quote(id, safe="")}, Go's {@code url.PathEscape}): the id is found encoded, raw, or
     * partly encoded, and an unknown encoded id is a JSON 404 naming it decoded.
     */
    @Test
    void aMachineIdIsFoundPercentEncodedAsClientLibrariesSendIt() throws Exception {
        String encoded = URLEncoder.encode(FAILED, StandardCharsets.UTF_8);
        assertThat(encoded).isEqualTo("proxmox%2FOnDemand%2Fpve.large%2Fpve-a%2F001");
        JsonNode byEncoded = get("/api/v1/machines/" + encoded);
        assertThat(byEncoded.get("id").asText()).isEqualTo(FAILED);
        assertThat(byEncoded.get("state").asText()).isEqualTo("FAILED");
        assertThat(byEncoded.get("operations"))
                .isEqualTo(get("/api/v1/machines/" + FAILED).get("operations"));
        assertThat(get("/api/v1/machines/proxmox/OnDemand%2Fpve.large/pve-a%2f000")
                        .get("id")
                        .asText())
                .isEqualTo(IDLE);

        HttpResponse<String> unknown = live.get(
                "/api/v1/machines/" + URLEncoder.encode("proxmox/OnDemand/nope/x/000", StandardCharsets.UTF_8));
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(JSON.readTree(unknown.body()).get("error").asText())
                .isEqualTo("machine not found: proxmox/OnDemand/nope/x/000");
    }

    @Test
    void statusNamesTheProviderItsVersionUptimeAndBackend() throws Exception {
        JsonNode s = get("/api/v1/status");
        assertThat(s.get("provider").asText()).isEqualTo("proxmox");
        assertThat(s.get("backend").asText()).isEqualTo("fake");
        assertThat(s.get("version").asText()).isNotBlank();
        Instant started = Instant.parse(s.get("started_at").asText());
        Instant now = Instant.parse(s.get("now").asText());
        assertThat(started).isBefore(now);
        assertThat(s.get("uptime_seconds").asLong())
                .isEqualTo(Duration.between(started, now).toSeconds());
        assertThat(s.get("api").isNull()).as("the fake reports no API status").isTrue();
        assertThat(s.get("last_reconcile_success").isNull()).isTrue();
        assertThat(s.get("reconcile_interval_seconds").isNull())
                .as("--reconcile-interval 0")
                .isTrue();
        assertThat(s.get("needs_attention").asInt()).isZero();
    }

    @Test
    @Order(Integer.MAX_VALUE) // changes the inventory the other tests count
    void changesFollowTheRevisionCursor() throws Exception {
        JsonNode now = get("/api/v1/changes");
        assertThat(now.get("changed").asInt()).isZero();
        String cursor = now.get("cursor").asText();
        assertThat(get("/api/v1/changes?since=" + cursor).get("changed").asInt())
                .isZero();

        String id = "proxmox/OnDemand/pve.xlarge/pve-b/003";
        live.client().create(id);
        live.client().awaitState(id, MachineState.MACHINE_STATE_IDLE);

        JsonNode delta = get("/api/v1/changes?since=" + cursor);
        assertThat(delta.get("changed").asInt()).isEqualTo(1); // the latest snapshot of the one machine
        assertThat(delta.get("ids").get(0).asText()).isEqualTo(id);
        assertThat(get("/api/v1/changes?since=" + delta.get("cursor").asText())
                        .get("changed")
                        .asInt())
                .isZero();
        assertThat(get("/api/v1/changes?since="
                                + Base64.getUrlEncoder()
                                        .encodeToString("garbage".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                        .get("changed")
                        .asInt())
                .isPositive();
    }

    @Test
    void everyOtherMethodIs405() throws Exception {
        for (String path : List.of(
                "/api/v1/summary", "/api/v1/machines", "/api/v1/changes", "/api/v1/nope", "/admin/", "/admin/app.js")) {
            for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD")) {
                HttpResponse<String> r = live.send(method, path);
                assertThat(r.statusCode()).as(method + " " + path).isEqualTo(405);
                assertThat(r.headers().firstValue("Allow"))
                        .as(method + " " + path)
                        .hasValue("GET");
            }
        }
    }

    @Test
    void noSecretIsEverServed() throws Exception {
        String blobBase64 = Base64.getEncoder().encodeToString(BLOB_SECRET.getBytes(StandardCharsets.UTF_8));
        for (String path : List.of(
                "/api/v1/summary",
                "/api/v1/machines?limit=1000",
                "/api/v1/offerings",
                "/api/v1/instance-types",
                "/api/v1/nodes",
                "/api/v1/failures",
                "/api/v1/changes?since=x",
                "/api/v1/status",
                "/api/v1/machines/" + IDLE,
                "/api/v1/machines/" + FAILED,
                "/metrics",
                "/admin/",
                "/admin/app.js")) {
            String body = live.get(path).body();
            assertThat(body)
                    .as(path)
                    .doesNotContain(TOKEN_SECRET)
                    .doesNotContain(BLOB_SECRET)
                    .doesNotContain(blobBase64)
                    .doesNotContain("BLOB-MARKER");
        }
    }

    @Test
    void thePageIsServedWithAContentSecurityPolicy() throws Exception {
        HttpResponse<String> page = live.get("/admin/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<script type=\"module\" src=\"app.js\"");
        assertThat(page.headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(csp -> assertThat(csp)
                        .contains("default-src 'none'")
                        .contains("script-src 'self'")
                        .doesNotContain("unsafe"));
        assertThat(live.get("/admin").statusCode()).isEqualTo(301);
        assertThat(live.get("/admin/app.css").headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/css"));
        assertThat(live.get("/admin/..%2Flogback.xml").statusCode()).isIn(400, 404);
        assertThat(live.get("/admin/nothing.js").statusCode()).isEqualTo(404);
    }

    @Test
    void withoutTheAdminUiOnlyProbesAndMetricsAreServed() throws Exception {
        try (TestingProvider off = TestingProvider.builder()
                .flags("--admin-ui=false", "--seed-count", "2")
                .build()) {
            assertThat(off.get("/admin/").statusCode()).isEqualTo(404);
            assertThat(off.get("/api/v1/summary").statusCode()).isEqualTo(404);
            assertThat(off.get("/metrics").statusCode()).isEqualTo(200);
            assertThat(off.get("/healthz").statusCode()).isEqualTo(200);
        }
    }
}
