package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS, tokens, the envelope and parameter handling: what every client call goes through. */
class TransportTest {
    static PveSimulator sim;
    static TestClient client;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1", "pve2")
                .templateVmid(9000)
                .token("bigfleet@pve!autoscaler=6f1c2d3e-4b5a-4c7d-9e8f-0a1b2c3d4e5f")
                .tlsDir(dir)
                .build());
        client = TestClient.of(sim);
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @Test
    void servesHttpsWithTheWrittenCaAndReportsTheLeafFingerprint() throws Exception {
        assertThat(sim.apiUrl().toString()).matches("https://127\\.0\\.0\\.1:\\d+/api2/json");
        assertThat(Files.readString(sim.caCertificate())).startsWith("-----BEGIN CERTIFICATE-----");
        HttpResponse<String> r =
                client.http().send(client.builder("/version").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_1_1);
        X509Certificate leaf = (X509Certificate) r.sslSession().orElseThrow().getPeerCertificates()[0];
        String fp = HexFormat.ofDelimiter(":")
                .withUpperCase()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(leaf.getEncoded()));
        assertThat(sim.fingerprint()).isEqualTo(fp).hasSize(95);
    }

    @Test
    void certificateNamesLocalhostToo() {
        URI viaName = URI.create(sim.apiUrl().toString().replace("127.0.0.1", "localhost"));
        TestClient byName =
                new TestClient(viaName, sim.caCertificate(), sim.token().authorizationHeader());
        assertThat(byName.get("/version").status()).isEqualTo(200);
    }

    @Test
    void clientTrustingAnotherCaFailsTheHandshake(@TempDir Path other) throws Exception {
        Path otherCa = TlsMaterial.mint().writeTo(other);
        TestClient stranger = new TestClient(sim.apiUrl(), otherCa, sim.token().authorizationHeader());
        assertThatThrownBy(
                        () -> stranger.sendOrThrow(stranger.builder("/version").GET()))
                .isInstanceOf(SSLHandshakeException.class);
    }

    @Test
    void missingTokenIsNoTicketWithEmptyBody() {
        TestClient anonymous = new TestClient(sim.apiUrl(), sim.caCertificate(), null);
        TestClient.Resp r = anonymous.get("/version");
        assertThat(r.status()).isEqualTo(401);
        assertThat(r.text()).isEmpty();
    }

    @Test
    void wrongSecretUnknownTokenAndGarbageAre401() {
        for (String header : new String[] {
            "PVEAPIToken=bigfleet@pve!autoscaler=wrong",
            "PVEAPIToken=other@pve!autoscaler=6f1c2d3e-4b5a-4c7d-9e8f-0a1b2c3d4e5f",
            "PVEAPIToken=garbage",
            "Bearer xyz",
        }) {
            TestClient c = new TestClient(sim.apiUrl(), sim.caCertificate(), header);
            TestClient.Resp r = c.get("/cluster/resources");
            assertThat(r.status()).as(header).isEqualTo(401);
            assertThat(r.text()).isEmpty();
        }
    }

    @Test
    void spaceAfterTheSchemeIsAccepted() {
        TestClient c = new TestClient(
                sim.apiUrl(),
                sim.caCertificate(),
                "PVEAPIToken bigfleet@pve!autoscaler=6f1c2d3e-4b5a-4c7d-9e8f-0a1b2c3d4e5f");
        assertThat(c.get("/version").status()).isEqualTo(200);
    }

    @Test
    void successUsesTheDataEnvelope() {
        TestClient.Resp r = client.get("/version");
        assertThat(r.data().get("version").asText()).isNotEmpty();
        assertThat(client.get("/nodes").data()).hasSize(2);
    }

    @Test
    void unknownParameterIs400WithPerParameterErrors() {
        TestClient.Resp r = client.get("/cluster/resources?type=vm&bogus=1");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.message()).isEqualTo("Parameter verification failed.\n");
        assertThat(r.error("bogus")).contains("property is not defined in schema");
    }

    @Test
    void booleansAreOnlyOneOrZeroInForms() {
        TestClient.Resp r = client.post("/nodes/pve1/qemu/9000/clone", "newid", "150", "full", "true");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.error("full")).isEqualTo("type check ('boolean') failed - got 'true'");
        assertThat(sim.vm(150)).isEmpty();
    }

    @Test
    void jsonBodiesAcceptRealBooleans() {
        TestClient.Resp r =
                client.postJson("/nodes/pve1/qemu/9000/clone", "{\"newid\":151,\"full\":true,\"name\":\"j\"}");
        assertThat(r.status()).isEqualTo(200);
        assertThat(client.run(r)).isEqualTo("OK");
        assertThat(client.run(client.delete("/nodes/pve1/qemu/151"))).isEqualTo("OK");
    }

    @Test
    void bodyOnGetOrDeleteIs501() throws Exception {
        TestClient.Resp r = client.sendOrThrow(client.builder("/nodes/pve1/qemu/9000")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .method("DELETE", HttpRequest.BodyPublishers.ofString("purge=1")));
        assertThat(r.status()).isEqualTo(501);
        assertThat(r.message()).isEqualTo("Unexpected content for method 'DELETE'\n");
        assertThat(sim.vm(9000)).isPresent();
    }

    @Test
    void unknownPathIs501() {
        TestClient.Resp r = client.get("/nodes/pve1/qemu/9000/foo");
        assertThat(r.status()).isEqualTo(501);
        assertThat(r.message()).isEqualTo("Method 'GET /nodes/pve1/qemu/9000/foo' not implemented\n");
    }

    @Test
    void missingVmIs500DoesNotExistNever404() {
        TestClient.Resp r = client.get("/nodes/pve1/qemu/4242/config");
        assertThat(r.status()).isEqualTo(500);
        assertThat(r.message()).isEqualTo("Configuration file 'nodes/pve1/qemu-server/4242.conf' does not exist\n");
        TestClient.Resp wrongNode = client.get("/nodes/pve2/qemu/9000/config");
        assertThat(wrongNode.message()).contains("'nodes/pve2/qemu-server/9000.conf' does not exist");
    }

    @Test
    void unknownNodeIs500() {
        TestClient.Resp r = client.get("/nodes/nope/status");
        assertThat(r.status()).isEqualTo(500);
        assertThat(r.message()).startsWith("hostname lookup 'nope' failed");
    }

    @Test
    void requestsAreRecordedForCallCounting() {
        sim.clearRequests();
        client.get("/cluster/resources?type=vm");
        assertThat(sim.requests()).extracting(RecordedRequest::call).containsExactly("GET /cluster/resources");
        assertThat(sim.requests().get(0).query()).isEqualTo("type=vm");
    }
}
