package dev.bigfleet.proxmox.packaging.helm;

import static dev.bigfleet.proxmox.packaging.helm.HelmChartTest.CHART;
import static dev.bigfleet.proxmox.packaging.helm.HelmChartTest.mounts;
import static dev.bigfleet.proxmox.packaging.helm.HelmChartTest.render;
import static dev.bigfleet.proxmox.packaging.helm.HelmChartTest.volumes;
import static dev.bigfleet.proxmox.packaging.helm.KubernetesObjects.all;
import static dev.bigfleet.proxmox.packaging.helm.KubernetesObjects.only;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart's two-replica setup (docs/concepts/high-availability.md): {@code values-ha.yaml} renders two
 * replicas on PostgreSQL with their password and the database's CA from Secrets, and the values
 * that would run replicas on one SQLite file, or with nothing to share, fail rendering with one
 * line.
 */
class HighAvailabilityChartTest {
    private static final Path HA_VALUES = CHART.resolve("values-ha.yaml");
    private static final String SECRETS = "/etc/bigfleet-proxmox/secrets/";

    @TempDir
    Path dir;

    @Test
    void haValuesRunTwoReplicasOnPostgresqlWithoutAVolume() throws IOException {
        List<HasMetadata> objects = render(HA_VALUES);
        Deployment deployment = only(objects, Deployment.class);
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        assertThat(deployment.getSpec().getStrategy().getType()).isEqualTo("RollingUpdate");
        assertThat(deployment
                        .getSpec()
                        .getStrategy()
                        .getRollingUpdate()
                        .getMaxUnavailable()
                        .getStrVal())
                .isEqualTo("100%");
        assertThat(all(objects, PersistentVolumeClaim.class)).isEmpty();
        assertThat(all(objects, PodDisruptionBudget.class)).isEmpty();
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        Container provider = pod.getContainers().get(0);
        Map<String, Volume> volumes = volumes(pod);
        assertThat(volumes).doesNotContainKey("state");
        assertThat(volumes.values())
                .allSatisfy(v -> assertThat(v.getPersistentVolumeClaim()).isNull());

        String url = "postgresql://bigfleet-db.db.svc:5432/bigfleet?user=bigfleet&sslmode=verify-full"
                + "&sslrootcert=/etc/bigfleet/db-ca/ca.crt";
        String passwordFile = SECRETS + "flag-state-password-file/password";
        assertThat(provider.getArgs())
                .contains("--state=" + url, "--state-password-file=" + passwordFile)
                .contains("--leader-lease=6s", "--leader-renew=2s")
                .filteredOn(a -> a.startsWith("--state="))
                .hasSize(1);

        // the password file is the key of the Secret mounted at the flag's directory
        VolumeMount passwordMount = mountAt(provider, SECRETS + "flag-state-password-file");
        assertThat(passwordMount.getReadOnly()).isTrue();
        Volume password = volumes.get(passwordMount.getName());
        assertThat(password.getSecret().getSecretName()).isEqualTo("bigfleet-db");
        assertThat(password.getSecret().getItems())
                .singleElement()
                .satisfies(
                        item -> assertThat(item.getKey() + "=" + item.getPath()).isEqualTo("password=password"));

        // the CA the URL's sslrootcert names: the whole Secret, read-only, at that directory
        VolumeMount caMount = mountAt(provider, "/etc/bigfleet/db-ca");
        assertThat(caMount.getReadOnly()).isTrue();
        assertThat(volumes.get(caMount.getName()).getSecret().getSecretName()).isEqualTo("bigfleet-db-ca");
        assertThat(volumes.get(caMount.getName()).getSecret().getItems()).isNullOrEmpty();
        assertThat(mounts(provider)).containsEntry("/etc/bigfleet/db-ca", caMount.getName());

        assertThat(provider.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(provider.getReadinessProbe().getPeriodSeconds()).isEqualTo(1);
        assertThat(provider.getReadinessProbe().getFailureThreshold()).isEqualTo(1);

        // the two replicas never share a node: the term selects this release's own pods
        PodAffinityTerm apart = pod.getAffinity()
                .getPodAntiAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
                .get(0);
        assertThat(apart.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
        assertThat(apart.getLabelSelector().getMatchLabels())
                .containsEntry("app.kubernetes.io/instance", "bigfleet")
                .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(apart.getLabelSelector().getMatchLabels());
    }

    @Test
    void haValuesOverAnOperatorsPolicyLetThePodsReachTheDatabase() throws IOException {
        // helm install -f operator.yaml -f values-ha.yaml: the operator's values, then the HA file
        Path operator = dir.resolve("operator.yaml");
        Files.writeString(operator, "networkPolicy: {enabled: true, proxmoxApi: {cidrs: [192.0.2.0/28]}}\n");
        Path chart = ChartCopy.withValues(CHART, operator, dir.resolve("chart"));
        NetworkPolicy policy = only(render(chart, HA_VALUES), NetworkPolicy.class);
        List<NetworkPolicyEgressRule> egress = policy.getSpec().getEgress();
        assertThat(egress)
                .filteredOn(rule -> !rule.getTo().isEmpty())
                .extracting(
                        rule -> rule.getTo().get(0).getIpBlock().getCidr(),
                        rule -> rule.getPorts().get(0).getPort().getIntVal())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("192.0.2.0/28", 8006),
                        org.assertj.core.groups.Tuple.tuple("10.0.12.0/24", 5432));

        // without the operator's policy, values-ha.yaml turns none on
        assertThat(all(render(HA_VALUES), NetworkPolicy.class)).isEmpty();
    }

    @Test
    void aBudgetOverTheReplicasSelectsThem() throws IOException {
        Path values = dir.resolve("budget.yaml");
        Files.writeString(
                values,
                Files.readString(HA_VALUES)
                        .replace("podDisruptionBudget: {}", "podDisruptionBudget: {minAvailable: 1}"));
        List<HasMetadata> objects = render(values);
        PodDisruptionBudget budget = only(objects, PodDisruptionBudget.class);
        assertThat(budget.getSpec().getMinAvailable().getIntVal()).isEqualTo(1);
        assertThat(budget.getSpec().getMaxUnavailable()).isNull();
        assertThat(budget.getSpec().getSelector().getMatchLabels())
                .isEqualTo(
                        only(objects, Deployment.class).getSpec().getSelector().getMatchLabels());
    }

    @Test
    void haValuesLintWithoutWarnings() throws IOException {
        Path chart = ChartCopy.withValues(CHART, HA_VALUES, dir.resolve("chart"));
        LintResult lint = new Helm(chart).lint().strict().call();
        assertThat(lint.isFailed()).as("%s", lint.getMessages()).isFalse();
    }

    @Test
    void theHighAvailabilityPageShowsExactlyTheHaValuesFile() throws IOException {
        String readme = Files.readString(
                CHART.resolve("../../../docs/concepts/high-availability.md").normalize());
        int section = readme.indexOf("Two replicas with the Helm chart");
        assertThat(section)
                .as("the high availability page has the chart's two-replica example")
                .isPositive();
        int start = readme.indexOf("```yaml\n", section) + "```yaml\n".length();
        String snippet = readme.substring(start, readme.indexOf("```", start));
        assertThat(snippet).isEqualTo(Files.readString(HA_VALUES));
    }

    @Test
    void replicasOnTheSqliteVolumeAreRefused() {
        assertRefused(
                "replicaCount: 2\n",
                "replicaCount 2 needs state.enabled: false: SQLite state cannot be shared and a"
                        + " ReadWriteOnce volume cannot be mounted twice; put the state in PostgreSQL"
                        + " (flags.state: postgresql://...)");
    }

    @Test
    void replicasWithoutAPostgresqlStateAreRefused() {
        String line = "replicaCount 3 needs flags.state set to a postgresql:// URL: the replicas share their"
                + " state and leader lease in one PostgreSQL database";
        assertRefused("replicaCount: 3\nstate: {enabled: false}\n", line);
        assertRefused("replicaCount: 3\nstate: {enabled: false}\nflags: {state: /var/lib/x/state.db}\n", line);
    }

    @Test
    void aRollingUpdateOnTheStateVolumeAndTwoStateFlagsAreRefused() {
        assertRefused(
                "strategy: {type: RollingUpdate}\n",
                "strategy.type RollingUpdate needs state.enabled: false: the new pod would mount the state"
                        + " volume while the old one still runs on it");
        assertRefused(
                "flags: {state: 'postgresql://db:5432/bigfleet?user=bigfleet'}\n",
                "flags.state and state.enabled: true both set --state: set state.enabled: false to use"
                        + " flags.state");
        assertRefused(
                "extraSecretMounts: [{secretName: ca}]\n",
                "extraSecretMounts: each entry needs secretName and mountPath, got {\"secretName\":\"ca\"}");
    }

    /** Rendering fails, and Helm's error is the template's line, whole, on one line of its own. */
    private void assertRefused(String values, String line) {
        Path file = dir.resolve("refused.yaml");
        assertThatThrownBy(() -> {
                    Files.writeString(file, values);
                    render(file);
                })
                .satisfies(e -> assertThat(e.getMessage().lines())
                        .anyMatch(l -> l.startsWith("execution error at (") && l.endsWith("): " + line)));
    }

    private static VolumeMount mountAt(Container container, String path) {
        return container.getVolumeMounts().stream()
                .filter(m -> m.getMountPath().equals(path))
                .findFirst()
                .orElseThrow(() -> new AssertionError("nothing mounted at " + path));
    }
}
