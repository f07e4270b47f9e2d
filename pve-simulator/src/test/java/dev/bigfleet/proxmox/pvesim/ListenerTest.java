package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An outage (every connection refused, then served again on the same port) and a certificate change. */
class ListenerTest {
    private PveSimulator sim;

    @AfterEach
    void stop() {
        if (sim != null) {
            sim.close();
        }
    }

    private PveSimulator start(Path dir) throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1")
                .templateVmid(9000)
                .token("bigfleet@pve!autoscaler=s3cret")
                .tlsDir(dir)
                .latency(Duration.ofMillis(100))
                .build());
        return sim;
    }

    @Test
    void duringAnOutageEveryConnectionIsRefusedAndAfterItTheSamePortServesTheSameCluster(@TempDir Path dir)
            throws Exception {
        start(dir);
        TestClient client = TestClient.of(sim);
        int port = sim.port();
        String upid = client.post("/nodes/pve1/qemu/9000/clone", "newid", "100", "name", "n1")
                .data()
                .asText();

        sim.refuseConnections();

        TestClient fresh = TestClient.of(sim);
        assertThatThrownBy(() -> fresh.sendOrThrow(fresh.builder("/version").GET()))
                .isInstanceOf(ConnectException.class);
        // the cluster goes on meanwhile: the clone task finishes while nobody can ask
        Thread.sleep(800);

        sim.acceptConnections();

        assertThat(sim.port()).isEqualTo(port);
        TestClient after = TestClient.of(sim);
        assertThat(after.awaitTask(upid).get("exitstatus").asText()).isEqualTo("OK");
        assertThat(after.get("/nodes/pve1/qemu/100/config").data().get("name").asText())
                .isEqualTo("n1");
        assertThat(sim.vm(100)).isPresent();
    }

    @Test
    void newCertificatesAreWrittenOverTheCaFileAndServedFromTheNextConnection(@TempDir Path dir) throws Exception {
        start(dir);
        Path oldCa = Files.copy(sim.caCertificate(), dir.resolve("old-ca.pem"));
        String oldFingerprint = sim.fingerprint();

        String fingerprint = sim.replaceCertificates();

        assertThat(fingerprint).isEqualTo(sim.fingerprint()).isNotEqualTo(oldFingerprint);
        assertThat(Files.readString(sim.caCertificate())).isNotEqualTo(Files.readString(oldCa));
        TestClient trustingOld = new TestClient(sim.apiUrl(), oldCa, sim.token().authorizationHeader());
        assertThatThrownBy(() ->
                        trustingOld.sendOrThrow(trustingOld.builder("/version").GET()))
                .isInstanceOf(SSLHandshakeException.class);
        HttpResponse<String> r = TestClient.of(sim)
                .http()
                .send(TestClient.of(sim).builder("/version").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(TlsMaterial.fingerprint(
                        (X509Certificate) r.sslSession().orElseThrow().getPeerCertificates()[0]))
                .isEqualTo(fingerprint);
    }

    @Test
    void certificatesReplacedDuringAnOutageAreServedOnceItEnds(@TempDir Path dir) throws Exception {
        start(dir);
        sim.refuseConnections();

        String fingerprint = sim.replaceCertificates();
        TestClient during = TestClient.of(sim);
        assertThatThrownBy(() -> during.sendOrThrow(during.builder("/version").GET()))
                .isInstanceOf(ConnectException.class);

        sim.acceptConnections();
        HttpResponse<String> r = TestClient.of(sim)
                .http()
                .send(TestClient.of(sim).builder("/version").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(TlsMaterial.fingerprint(
                        (X509Certificate) r.sslSession().orElseThrow().getPeerCertificates()[0]))
                .isEqualTo(fingerprint);
    }
}
