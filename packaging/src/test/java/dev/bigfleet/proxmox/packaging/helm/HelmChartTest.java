package dev.bigfleet.proxmox.packaging.helm;

import static dev.bigfleet.proxmox.packaging.helm.KubernetesObjects.all;
import static dev.bigfleet.proxmox.packaging.helm.KubernetesObjects.only;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Helm chart {@code deploy/helm/bigfleet-proxmox}: {@code helm lint} and {@code helm template}
 * (Helm's own code, in-process) over its defaults and over a file that sets every value, each
 * rendered object parsed strictly as its Kubernetes type, then what an operator relies on: the
 * restricted security context, the state volume, Secrets mounted as files and never in env or
 * args, and the provider flags each value turns into.
 */
class HelmChartTest {
    static final Path CHART =
            Path.of("../deploy/helm/bigfleet-proxmox").toAbsolutePath().normalize();
    private static final Path FULL_VALUES = Path.of("src/test/resources/helm/full-values.yaml");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static List<HasMetadata> render(Path valuesFile) throws IOException {
        return render(CHART, valuesFile);
    }

    static List<HasMetadata> render(Path chart, Path valuesFile) throws IOException {
        var template = new Helm(chart).template().withName("bigfleet").withNamespace("capacity");
        if (valuesFile != null) {
            template = template.withValuesFile(valuesFile.toAbsolutePath());
        }
        return KubernetesObjects.parse(template.call());
    }

    @Test
    void lintsWithoutWarningsWithItsDefaultsAndWithEveryValueSet() throws IOException {
        LintResult defaults = new Helm(CHART).lint().strict().call();
        assertThat(defaults.isFailed()).as("%s", defaults.getMessages()).isFalse();

        // helm lint reads the chart's own values.yaml: lint a copy whose values are the full file
        Path copy = ChartCopy.withValues(CHART, FULL_VALUES, dir.resolve("chart"));
        LintResult full = new Helm(copy).lint().strict().call();
        assertThat(full.isFailed()).as("%s", full.getMessages()).isFalse();
    }

    @Test
    void defaultsRunOneRestrictedReplicaWithItsStateOnAPersistentVolume() throws IOException {
        List<HasMetadata> objects = render(null);
        Deployment deployment = only(objects, Deployment.class);
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(1);
        assertThat(deployment.getSpec().getStrategy().getType()).isEqualTo("Recreate");
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        assertThat(pod.getAutomountServiceAccountToken()).isFalse();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(65532L);
        assertThat(pod.getSecurityContext().getFsGroup()).isEqualTo(65532L);
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");

        Container provider = pod.getContainers().get(0);
        assertThat(provider.getImage()).isEqualTo("bigfleet-proxmox:" + System.getProperty("project.version"));
        assertThat(provider.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(provider.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(provider.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(provider.getSecurityContext().getCapabilities().getAdd()).isNullOrEmpty();
        assertThat(provider.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(provider.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(provider.getStartupProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(List.of(provider.getReadinessProbe(), provider.getLivenessProbe(), provider.getStartupProbe()))
                .allSatisfy(probe -> assertThat(probe.getHttpGet().getScheme()).isEqualTo("HTTP"));
        assertThat(provider.getResources().getLimits()).containsKey("memory");
        assertThat(provider.getEnv()).isNullOrEmpty();
        assertThat(provider.getArgs())
                .containsExactly(
                        "--addr=:9000",
                        "--metrics-addr=:9090",
                        "--proxmox-backend=proxmox",
                        "--provider=proxmox",
                        "--log-format=json",
                        "--state=/var/lib/bigfleet-proxmox/state.db");

        assertThat(mounts(provider)).containsEntry("/tmp", "tmp").containsEntry("/var/lib/bigfleet-proxmox", "state");
        Map<String, Volume> volumes = volumes(pod);
        assertThat(volumes.get("tmp").getEmptyDir()).isNotNull();
        PersistentVolumeClaim claim = only(objects, PersistentVolumeClaim.class);
        assertThat(volumes.get("state").getPersistentVolumeClaim().getClaimName())
                .isEqualTo(claim.getMetadata().getName());
        assertThat(claim.getMetadata().getAnnotations()).containsEntry("helm.sh/resource-policy", "keep");
        assertThat(claim.getSpec().getResources().getRequests().get("storage").toString())
                .isEqualTo("1Gi");

        Service service = only(objects, Service.class);
        assertThat(service.getSpec().getPorts())
                .extracting(ServicePort::getName, ServicePort::getPort)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("grpc", 9000),
                        org.assertj.core.groups.Tuple.tuple("http", 9090));
        assertThat(all(objects, ServiceMonitor.class)).isEmpty();
        assertThat(all(objects, PrometheusRule.class)).isEmpty();
        assertThat(all(objects, NetworkPolicy.class)).isEmpty();
        assertThat(all(objects, PodDisruptionBudget.class)).isEmpty();
        assertThat(all(objects, ConfigMap.class)).hasSize(1);
    }

    @Test
    void everyValueSetBecomesItsFlagsMountsAndObjects() throws IOException {
        List<HasMetadata> objects = render(FULL_VALUES);
        Deployment deployment = only(objects, Deployment.class);
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        Container provider = pod.getContainers().get(0);
        assertThat(provider.getImage()).isEqualTo("registry.example.com/bigfleet/bigfleet-proxmox:1.2.3");
        String config = "/etc/bigfleet-proxmox/config/";
        String secrets = "/etc/bigfleet-proxmox/secrets/";
        assertThat(provider.getArgs())
                .containsExactly(
                        "--addr=:9443",
                        "--metrics-addr=:9191",
                        "--proxmox-backend=proxmox",
                        "--provider=pve-east",
                        "--log-format=text",
                        "--nodes=pve1,pve2,pve3",
                        "--state=/var/lib/bigfleet-proxmox/state.db",
                        "--offerings=" + config + "offerings.json",
                        "--instance-types=" + config + "instance-types.json",
                        "--backend-config=" + config + "backend-config.json",
                        "--tls-cert=/etc/bigfleet-proxmox/tls/tls.crt",
                        "--tls-key=/etc/bigfleet-proxmox/tls/tls.key",
                        "--tls-ca=/etc/bigfleet-proxmox/tls/ca.crt",
                        "--metrics-tls-cert=/etc/bigfleet-proxmox/http-tls/tls.crt",
                        "--metrics-tls-key=/etc/bigfleet-proxmox/http-tls/tls.key",
                        "--metrics-tls-ca=/etc/bigfleet-proxmox/http-tls/ca.crt",
                        "--state-password-file=" + secrets + "flag-state-password-file/password",
                        "--admin-ui=true",
                        "--backend-opt=bootstrap-path=/run/join",
                        "--configure-timeout=9m",
                        "--create-timeout=10m",
                        "--default-zone=east",
                        "--delete-timeout=7m",
                        "--drain-timeout=20m",
                        "--failed-retention=1h",
                        "--orphan-grace=15m",
                        "--price-per-gib-hour=0.001",
                        "--price-per-vcpu-hour=0.004",
                        "--prices=pve.large=0.05",
                        "--reap-orphans=false",
                        "--reconcile-interval=1m",
                        "--reflection=false",
                        "--seed-count=100000",
                        "--shutdown-grace=20s",
                        "--template-vmid=9001");

        // the only environment variable is the JVM's options; no Secret reaches env or args
        assertThat(provider.getEnv()).singleElement().satisfies(env -> {
            assertThat(env.getName()).isEqualTo("JDK_JAVA_OPTIONS");
            assertThat(env.getValueFrom()).isNull();
        });
        assertThat(provider.getEnvFrom()).isNullOrEmpty();
        Map<String, Volume> volumes = volumes(pod);
        Map<String, String> mounts = mounts(provider);
        assertThat(mounts)
                .containsEntry(secrets + "proxmox-token", "proxmox-token")
                .containsEntry(secrets + "proxmox-ca", "proxmox-ca")
                .containsEntry(secrets + "option-ssh-key-file", "option-ssh-key-file")
                .containsEntry(secrets + "flag-state-password-file", "flag-state-password-file")
                .containsEntry("/etc/bigfleet-proxmox/tls", "grpc-tls")
                .containsEntry("/etc/bigfleet-proxmox/http-tls", "http-tls")
                .containsEntry("/etc/bigfleet/extra-ca", "extra-secret-0");
        assertThat(provider.getVolumeMounts())
                .filteredOn(m -> m.getMountPath().startsWith("/etc/"))
                .allSatisfy(m -> assertThat(m.getReadOnly()).isTrue());
        assertThat(volumes.get("proxmox-token").getSecret().getSecretName()).isEqualTo("proxmox-token");
        assertThat(volumes.get("proxmox-token").getSecret().getItems().get(0).getKey())
                .isEqualTo("secret");
        assertThat(volumes.get("extra-secret-0").getSecret().getSecretName()).isEqualTo("extra-ca");
        assertThat(volumes.get("grpc-tls").getSecret().getItems())
                .extracting(i -> i.getKey())
                .containsExactly("tls.crt", "tls.key", "ca.crt");
        assertThat(volumes.get("http-tls").getSecret().getSecretName()).isEqualTo("provider-http-tls");
        assertThat(volumes.get("http-tls").getSecret().getItems())
                .extracting(i -> i.getKey())
                .containsExactly("tls.crt", "tls.key", "ca.crt");
        // HTTPS on the HTTP port: the probes follow (kubelet presents no client certificate, and
        // the provider lets /healthz and /readyz answer without one)
        assertThat(List.of(provider.getReadinessProbe(), provider.getLivenessProbe(), provider.getStartupProbe()))
                .allSatisfy(probe -> {
                    assertThat(probe.getHttpGet().getScheme()).isEqualTo("HTTPS");
                    assertThat(probe.getHttpGet().getPath()).isIn("/healthz", "/readyz");
                });
        assertThat(volumes.values())
                .filteredOn(v -> v.getSecret() != null)
                .allSatisfy(v -> assertThat(v.getSecret().getDefaultMode()).isEqualTo(0440));

        ConfigMap configMap = all(objects, ConfigMap.class).stream()
                .filter(c -> c.getMetadata().getName().equals("pve-east"))
                .findFirst()
                .orElseThrow();
        JsonNode backendConfig = JSON.readTree(configMap.getData().get("backend-config.json"));
        assertThat(backendConfig.get("api-url").asText()).isEqualTo("https://pve.example.com:8006/api2/json");
        assertThat(backendConfig.get("token-id").asText()).isEqualTo("bigfleet@pve!autoscaler");
        assertThat(backendConfig.get("token-file").asText()).isEqualTo(secrets + "proxmox-token/secret");
        assertThat(backendConfig.get("ca-file").asText()).isEqualTo(secrets + "proxmox-ca/pve-root-ca.pem");
        assertThat(backendConfig.get("ssh-key-file").asText()).isEqualTo(secrets + "option-ssh-key-file/id_ed25519");
        assertThat(backendConfig.get("max-concurrent-clones-per-node").asInt()).isEqualTo(4);
        assertThat(backendConfig.get("memory-overcommit").asDouble()).isEqualTo(1.5);
        assertThat(backendConfig.has("token-secret")).isFalse();
        assertThat(JSON.readTree(configMap.getData().get("offerings.json"))
                        .get(0)
                        .get("count")
                        .asInt())
                .isEqualTo(8);
        assertThat(JSON.readTree(configMap.getData().get("instance-types.json")).has("pve.large"))
                .isTrue();

        ServiceMonitor monitor = only(objects, ServiceMonitor.class);
        assertThat(monitor.getSpec().getEndpoints().get(0).getPort()).isEqualTo("http");
        assertThat(monitor.getSpec().getEndpoints().get(0).getScheme()).isEqualTo("https");
        var scrapeTls = monitor.getSpec().getEndpoints().get(0).getTlsConfig();
        assertThat(scrapeTls.getServerName()).isEqualTo("pve-east.capacity.svc");
        assertThat(scrapeTls.getCa().getSecret().getName()).isEqualTo("provider-http-tls");
        assertThat(scrapeTls.getKeySecret().getName()).isEqualTo("prometheus-scrape");
        assertThat(monitor.getSpec().getEndpoints().get(0).getRelabelings()).anySatisfy(r -> {
            assertThat(r.getTargetLabel()).isEqualTo("job");
            assertThat(r.getReplacement()).isEqualTo("bigfleet-proxmox");
        });
        assertThat(only(objects, PrometheusRule.class)
                        .getSpec()
                        .getGroups()
                        .get(0)
                        .getRules())
                .extracting(r -> r.getAlert())
                .contains("BigFleetProxmoxDown", "BigFleetProxmoxNotReady", "BigFleetProxmoxApiDown");
        ConfigMap dashboard = all(objects, ConfigMap.class).stream()
                .filter(c -> c.getMetadata().getName().equals("pve-east-dashboard"))
                .findFirst()
                .orElseThrow();
        assertThat(dashboard.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        assertThat(JSON.readTree(dashboard.getData().get("bigfleet-proxmox.json"))
                        .get("uid")
                        .asText())
                .isEqualTo("bigfleet-proxmox");
        NetworkPolicy policy = only(objects, NetworkPolicy.class);
        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
        assertThat(policy.getSpec().getEgress())
                .flatExtracting(rule -> rule.getTo())
                .extracting(peer -> peer.getIpBlock().getCidr())
                .containsExactly("192.0.2.0/28", "198.51.100.0/24");
        assertThat(policy.getSpec()
                        .getEgress()
                        .get(2)
                        .getPorts()
                        .get(0)
                        .getPort()
                        .getIntVal())
                .isEqualTo(5433);
        PodDisruptionBudget budget = only(objects, PodDisruptionBudget.class);
        assertThat(budget.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
        assertThat(budget.getSpec().getSelector().getMatchLabels())
                .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
        PersistentVolumeClaim claim = only(objects, PersistentVolumeClaim.class);
        assertThat(claim.getSpec().getStorageClassName()).isEqualTo("fast");
    }

    /** The preflight test pod's template. */
    private static final Path PREFLIGHT_POD = Path.of("templates", "tests", "preflight-pod.yaml");

    /**
     * The chart rendered with its {@code helm test} pod among the objects: {@code helm template}
     * keeps hooks apart, so it renders a copy whose pod carries the hook annotation under another
     * name.
     */
    private List<HasMetadata> renderWithTestHook(Path values) throws IOException {
        Path copy = Files.createTempDirectory(dir, "chart");
        Files.delete(copy);
        try (var files = Files.walk(CHART)) {
            for (Path file : files.toList()) {
                Path target = copy.resolve(CHART.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        Path pod = copy.resolve(PREFLIGHT_POD.toString());
        Files.writeString(pod, Files.readString(pod).replace("helm.sh/hook:", "example.com/hook:"));
        return render(copy, values);
    }

    @Test
    void helmTestRunsPreflightWithTheProvidersOwnFlagsAndFiles() throws IOException {
        String template = Files.readString(CHART.resolve(PREFLIGHT_POD.toString()));
        assertThat(template).contains("helm.sh/hook: test");
        for (Path values : new Path[] {null, FULL_VALUES}) {
            List<HasMetadata> objects = renderWithTestHook(values);
            Deployment deployment = only(objects, Deployment.class);
            Container provider =
                    deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
            Pod pod = only(objects, Pod.class);
            assertThat(pod.getMetadata().getAnnotations()).containsEntry("example.com/hook", "test");
            assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
            assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
            Container preflight = pod.getSpec().getContainers().get(0);
            assertThat(preflight.getImage()).isEqualTo(provider.getImage());
            assertThat(preflight.getSecurityContext()).isEqualTo(provider.getSecurityContext());
            List<String> own = values == null
                    ? List.of("preflight")
                    : List.of("preflight", "--live", "--only=pve.small@pve1,pve.small@pve2");
            assertThat(preflight.getArgs().subList(0, own.size())).isEqualTo(own);
            assertThat(preflight
                            .getArgs()
                            .subList(own.size(), preflight.getArgs().size()))
                    .as("exactly the provider's flags")
                    .isEqualTo(provider.getArgs());
            Map<String, String> mounts = mounts(preflight);
            Map<String, String> providerMounts = new java.util.HashMap<>(mounts(provider));
            providerMounts.values().remove("state");
            assertThat(mounts)
                    .as("the provider's files and Secrets, without its state")
                    .isEqualTo(providerMounts);
            assertThat(preflight.getEnv()).isEqualTo(provider.getEnv());
        }
        Path fake = Files.writeString(dir.resolve("fake.yaml"), "backend: fake\n");
        assertThat(all(render(fake), Pod.class))
                .as("the fake backend has no preflight")
                .isEmpty();
    }

    @Test
    void theFakeBackendGetsNoProxmoxOptionsAndAnExistingClaimIsUsedAsItIs() throws IOException {
        Path values = dir.resolve("fake.yaml");
        Files.writeString(
                values,
                "backend: fake\nproxmox: {apiUrl: https://pve:8006, tokenSecret: {secretName: t, key: token}}\n"
                        + "state: {existingClaim: kept-state}\n");
        List<HasMetadata> objects = render(values);
        Deployment deployment = only(objects, Deployment.class);
        Container provider =
                deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(provider.getArgs())
                .contains("--proxmox-backend=fake")
                .noneMatch(a -> a.startsWith("--backend-config"));
        assertThat(mounts(provider)).doesNotContainValue("proxmox-token");
        assertThat(all(objects, PersistentVolumeClaim.class)).isEmpty();
        assertThat(volumes(deployment.getSpec().getTemplate().getSpec())
                        .get("state")
                        .getPersistentVolumeClaim()
                        .getClaimName())
                .isEqualTo("kept-state");
    }

    @Test
    void httpsWithoutAClientCaAndAClientCaWithoutItsSecret() throws IOException {
        Path values = dir.resolve("https.yaml");
        Files.writeString(values, "http: {tls: {secretName: web-tls}}\nmetrics: {serviceMonitor: {enabled: true}}\n");
        List<HasMetadata> objects = render(values);
        Container provider = only(objects, Deployment.class)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
        assertThat(provider.getArgs())
                .contains(
                        "--metrics-tls-cert=/etc/bigfleet-proxmox/http-tls/tls.crt",
                        "--metrics-tls-key=/etc/bigfleet-proxmox/http-tls/tls.key")
                .noneMatch(a -> a.startsWith("--metrics-tls-ca"));
        assertThat(provider.getReadinessProbe().getHttpGet().getScheme()).isEqualTo("HTTPS");
        var endpoint =
                only(objects, ServiceMonitor.class).getSpec().getEndpoints().get(0);
        assertThat(endpoint.getScheme()).isEqualTo("https");
        assertThat(endpoint.getTlsConfig()).isNull();

        Files.writeString(values, "http: {tls: {clientCA: true}}\n");
        assertThatThrownBy(() -> render(values))
                .satisfies(e -> assertThat(e.getMessage().lines())
                        .anyMatch(l -> l.startsWith("execution error at (")
                                && l.endsWith("): http.tls.clientCA needs http.tls.secretName: the client CA comes"
                                        + " from that Secret's ca.crt")));
    }

    @Test
    void theChartRunsTheProvidersOwnVersionByDefault() throws IOException {
        String chart = Files.readString(CHART.resolve("Chart.yaml"));
        assertThat(chart).contains("appVersion: \"" + System.getProperty("project.version") + "\"");
    }

    static Map<String, String> mounts(Container container) {
        return container.getVolumeMounts().stream()
                .collect(Collectors.toMap(VolumeMount::getMountPath, VolumeMount::getName));
    }

    static Map<String, Volume> volumes(PodSpec pod) {
        return pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
    }
}
