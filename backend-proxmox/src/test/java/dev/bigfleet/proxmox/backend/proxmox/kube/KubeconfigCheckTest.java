package dev.bigfleet.proxmox.backend.proxmox.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.testing.TestingKubernetesCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --cluster-kubeconfig} and {@code --cluster-kubeconfig-dir} at startup: each mistake is one
 * line naming the flag, the cluster and the file, and never the file's credentials.
 */
class KubeconfigCheckTest {
    private static final String TOKEN = "kubeconfig-token-must-not-leak";
    private static final String MAP = "--cluster-kubeconfig";
    private static final String DIR = "--cluster-kubeconfig-dir";

    private static TestingKubernetesCluster cluster;
    private static String ca;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws IOException {
        cluster = new TestingKubernetesCluster();
        ca = Base64.getEncoder().encodeToString(cluster.certificate());
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private Path write(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file;
    }

    private Path good(String name) throws IOException {
        return write(name, TestingKubernetesCluster.kubeconfigText("https://k8s.example:6443", ca, TOKEN, ""));
    }

    private static ClusterKubeconfigs parse(String map) {
        return ClusterKubeconfigs.parse(Optional.of(map), MAP, Optional.empty(), DIR);
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> refused(Runnable parse, String start) {
        return assertThatThrownBy(parse::run)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(start)
                .hasMessageNotContaining(TOKEN)
                .satisfies(e -> assertThat(e.getMessage()).as("one line").doesNotContain("\n"));
    }

    @Test
    void eachNamedKubeconfigIsReadAndChecked() throws IOException {
        Path prod = good("prod.yaml");
        Path staging = good("staging.yaml");

        ClusterKubeconfigs kubeconfigs = parse(" prod-1=" + prod + " , staging = " + staging + ",");

        assertThat(kubeconfigs.clusters()).containsExactly("prod-1", "staging");
        assertThat(kubeconfigs.find("prod-1")).isPresent();
        assertThat(kubeconfigs.find("other")).isEmpty();
        assertThat(kubeconfigs.find("prod-1").orElseThrow().current().server()).isEqualTo("https://k8s.example:6443");
        assertThat(kubeconfigs.toString())
                .isEqualTo("kubeconfigs=prod-1,staging")
                .doesNotContain(TOKEN);
    }

    @Test
    void aMissingFileIsRefused() {
        Path missing = dir.resolve("missing.yaml");

        refused(() -> parse("prod-1=" + missing), MAP + " prod-1=" + missing + ": cannot read: no such file");
    }

    @Test
    void aFileThatIsNotYamlIsRefusedWithoutQuotingIt() throws IOException {
        Path bad = write("bad.yaml", "apiVersion: v1\nusers:\n- name: x\n  user:\n    token: " + TOKEN + "\n   : [\n");

        refused(() -> parse("prod-1=" + bad), MAP + " prod-1=" + bad + ": is not a kubeconfig: not valid YAML")
                .hasMessageContaining("line ");
    }

    @Test
    void yamlOfAnotherShapeIsRefusedNamingTheFieldNotItsValue() throws IOException {
        Path wrong = write("wrong.yaml", "apiVersion: v1\nkind: Config\nclusters: " + TOKEN + "\n");

        refused(
                () -> parse("prod-1=" + wrong),
                MAP + " prod-1=" + wrong + ": is not a kubeconfig: not valid YAML for a kubeconfig"
                        + " (MismatchedInputException at clusters)");
    }

    @Test
    void anEmptyFileIsRefused() throws IOException {
        Path empty = write("empty.yaml", "\n");

        refused(() -> parse("prod-1=" + empty), MAP + " prod-1=" + empty + ": the file is empty");
    }

    @Test
    void aKubeconfigThatSkipsTlsVerificationIsRefused() throws IOException {
        Path insecure = write(
                "insecure.yaml",
                TestingKubernetesCluster.kubeconfigText(
                        "https://k8s.example:6443", ca, TOKEN, "    insecure-skip-tls-verify: true\n"));

        refused(
                () -> parse("prod-1=" + insecure),
                MAP + " prod-1=" + insecure + ": cluster \"workload\" sets insecure-skip-tls-verify; the cluster's"
                        + " certificate is always verified");
    }

    @Test
    void aPlainHttpServerIsRefused() throws IOException {
        Path http =
                write("http.yaml", TestingKubernetesCluster.kubeconfigText("http://k8s.example:8080", ca, TOKEN, ""));

        refused(() -> parse("prod-1=" + http), MAP + " prod-1=" + http + ": cluster \"workload\": server")
                .hasMessageContaining("must be https://HOST[:PORT] (http:// would send the credentials in clear)");
    }

    @Test
    void aCaThatIsNotACertificateIsRefused() throws IOException {
        Path badCa = write(
                "bad-ca.yaml",
                TestingKubernetesCluster.kubeconfigText(
                        "https://k8s.example:6443",
                        Base64.getEncoder()
                                .encodeToString(
                                        "not a certificate".getBytes(java.nio.charset.StandardCharsets.US_ASCII)),
                        TOKEN,
                        ""));

        refused(
                () -> parse("prod-1=" + badCa),
                MAP + " prod-1=" + badCa + ": cluster \"workload\": certificate-authority-data: no PEM certificate"
                        + " found");
    }

    @Test
    void aKubeconfigWithoutACurrentContextIsRefused() throws IOException {
        Path noContext = write(
                "no-context.yaml",
                TestingKubernetesCluster.kubeconfigText("https://k8s.example:6443", ca, TOKEN, "")
                        .replace("current-context: workload\n", ""));

        refused(() -> parse("prod-1=" + noContext), MAP + " prod-1=" + noContext + ": names no current-context");
    }

    @Test
    void aKubeconfigWhoseContextNamesAMissingUserIsRefused() throws IOException {
        Path noUser = write(
                "no-user.yaml",
                TestingKubernetesCluster.kubeconfigText("https://k8s.example:6443", ca, TOKEN, "")
                        .replace("user: bigfleet-provider", "user: someone-else"));

        refused(
                () -> parse("prod-1=" + noUser),
                MAP + " prod-1=" + noUser + ": the user \"someone-else\" of context \"workload\" is not among its"
                        + " users");
    }

    @Test
    void aUserWithoutCredentialsOrWithATokenFileIsRefused() throws IOException {
        String text = TestingKubernetesCluster.kubeconfigText("https://k8s.example:6443", ca, TOKEN, "");
        Path anonymous = write("anonymous.yaml", text.replace("    token: " + TOKEN + "\n", "    username: x\n"));
        Path tokenFile = write("token-file.yaml", text.replace("token: " + TOKEN, "tokenFile: /run/token"));

        refused(
                () -> parse("prod-1=" + anonymous),
                MAP + " prod-1=" + anonymous + ": user \"bigfleet-provider\": holds no credentials");
        refused(
                () -> parse("prod-1=" + tokenFile),
                MAP + " prod-1=" + tokenFile + ": user \"bigfleet-provider\": tokenFile is not supported");
    }

    @Test
    void malformedEntriesAreRefused() throws IOException {
        Path prod = good("prod.yaml");

        refused(() -> parse(prod.toString()), MAP + ": \"" + prod + "\" must be CLUSTER=PATH");
        refused(() -> parse("=" + prod), MAP + ": \"=" + prod + "\" must be CLUSTER=PATH, both parts non-empty");
        refused(() -> parse("prod-1=" + prod + ",prod-1=" + prod), MAP + " prod-1: given twice");
    }

    @Test
    void aDirectoryHoldsOneKubeconfigPerClusterReadAtStartup() throws IOException {
        Path kubeconfigs = Files.createDirectory(dir.resolve("kubeconfigs"));
        Files.copy(good("a.yaml"), kubeconfigs.resolve("prod-1.kubeconfig"));
        Files.copy(good("b.yaml"), kubeconfigs.resolve("staging.kubeconfig"));
        Files.writeString(kubeconfigs.resolve("README"), "not a kubeconfig");
        Path named = good("named.yaml");

        ClusterKubeconfigs k =
                ClusterKubeconfigs.parse(Optional.of("prod-1=" + named), MAP, Optional.of(kubeconfigs.toString()), DIR);

        assertThat(k.clusters()).containsExactly("prod-1", "staging");
        assertThat(k.find("staging")).isPresent();
        assertThat(k.find("../staging")).as("no way out of the directory").isEmpty();
        assertThat(k.missing("qa"))
                .isEqualTo("no kubeconfig for cluster qa: give one with " + MAP + " qa=PATH or as "
                        + kubeconfigs.resolve("qa.kubeconfig") + " (" + DIR + ")");
        // a cluster whose file is added later is found when first asked for
        assertThat(k.find("qa")).isEmpty();
        Files.copy(good("c.yaml"), kubeconfigs.resolve("qa.kubeconfig"));
        assertThat(k.find("qa")).isPresent();
    }

    @Test
    void aBadFileInTheDirectoryIsRefusedAtStartupNamingIt() throws IOException {
        Path kubeconfigs = Files.createDirectory(dir.resolve("kubeconfigs"));
        Files.copy(good("a.yaml"), kubeconfigs.resolve("prod-1.kubeconfig"));
        Files.writeString(
                kubeconfigs.resolve("staging.kubeconfig"),
                TestingKubernetesCluster.kubeconfigText(
                        "https://k8s.example:6443", ca, TOKEN, "    insecure-skip-tls-verify: true\n"));

        refused(
                () -> ClusterKubeconfigs.parse(Optional.empty(), MAP, Optional.of(kubeconfigs.toString()), DIR),
                DIR + " " + kubeconfigs.resolve("staging.kubeconfig") + ": cluster \"workload\" sets"
                        + " insecure-skip-tls-verify");
    }

    @Test
    void aDirectoryThatIsNotThereIsRefused() {
        Path missing = dir.resolve("nowhere");

        refused(
                () -> ClusterKubeconfigs.parse(Optional.empty(), MAP, Optional.of(missing.toString()), DIR),
                DIR + " " + missing + ": not a directory");
    }

    @Test
    void relativePathsInAKubeconfigAreTakenFromItsDirectory() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Files.write(sub.resolve("ca.pem"), cluster.certificate());
        Path kubeconfig = sub.resolve("prod.yaml");
        Files.writeString(
                kubeconfig,
                TestingKubernetesCluster.kubeconfigText("https://k8s.example:6443", ca, TOKEN, "")
                        .replace("certificate-authority-data: " + ca, "certificate-authority: ca.pem"));

        ClusterKubeconfigs k = parse("prod-1=" + kubeconfig);

        assertThat(k.find("prod-1").orElseThrow().current().config().getCaCertFile())
                .isEqualTo(sub.resolve("ca.pem").toString());
        Files.writeString(
                kubeconfig,
                TestingKubernetesCluster.kubeconfigText("https://k8s.example:6443", ca, TOKEN, "")
                        .replace("certificate-authority-data: " + ca, "certificate-authority: missing.pem"));
        refused(
                () -> parse("prod-1=" + kubeconfig),
                MAP + " prod-1=" + kubeconfig + ": cluster \"workload\":" + " certificate-authority "
                        + sub.resolve("missing.pem") + " is not a readable file");
    }
}
