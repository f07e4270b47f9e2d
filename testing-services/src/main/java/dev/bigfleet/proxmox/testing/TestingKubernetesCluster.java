package dev.bigfleet.proxmox.testing;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.internal.SimpleRequest;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A workload cluster's API for the tests: fabric8's Kubernetes mock server over HTTPS (its own
 * self-signed certificate, which the kubeconfigs written here carry as their CA, so the client
 * verifies it), in CRUD mode with expectations taking precedence ({@link KubernetesMixedDispatcher}).
 * Two things CRUD mode does not model are added in front of it: a pod list with the field selector
 * {@code spec.nodeName=NODE} (CRUD mode only knows metadata fields) is answered with the pods on that
 * node, and an eviction with no expectation queued for it is accepted (201) and its pod deleted
 * {@link #terminationDelay} later, as a kubelet would. Every eviction's body and every request that
 * changes something are recorded.
 */
public final class TestingKubernetesCluster implements AutoCloseable {
    private static final Pattern EVICTION = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/eviction");
    private static final Pattern POD_LIST = Pattern.compile("/api/v1/(namespaces/[^/]+/)?pods");
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    public final KubernetesMockServer server;
    /** The tests' own client (trusting the server blindly is fine for the test's side). */
    public final NamespacedKubernetesClient admin;

    public final List<Eviction> evictions = new CopyOnWriteArrayList<>();
    /** Every request that changed something, "METHOD PATH", the tests' own (setup, the kubelet) included. */
    public final List<String> changes = new CopyOnWriteArrayList<>();

    private final List<Map.Entry<String, String>> changesByCredential = new CopyOnWriteArrayList<>();
    public volatile Duration terminationDelay = Duration.ZERO;

    private final Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    private final KubernetesMixedDispatcher mixed = new KubernetesMixedDispatcher(responses);
    private final ScheduledExecutorService kubelet = Executors.newSingleThreadScheduledExecutor();

    public TestingKubernetesCluster() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, new Front(), true);
        server.init();
        admin = server.createClient();
    }

    /** The server's own certificate, PEM: the CA a kubeconfig for it names. */
    public byte[] certificate() throws IOException {
        return Files.readAllBytes(Path.of(server.getSelfSignedCertificate().certificatePath()));
    }

    public String url() {
        return "https://localhost:" + server.getPort();
    }

    /** Writes a kubeconfig reaching this server with a bearer token, trusting its certificate. */
    public Path kubeconfig(Path file, String token) throws IOException {
        return kubeconfig(file, token, certificate());
    }

    /** Writes a kubeconfig reaching this server, trusting {@code ca} (PEM). */
    public Path kubeconfig(Path file, String token, byte[] ca) throws IOException {
        Files.writeString(file, kubeconfigText(url(), Base64.getEncoder().encodeToString(ca), token, ""));
        return file;
    }

    public static String kubeconfigText(String server, String caData, String token, String clusterExtra) {
        return "apiVersion: v1\n"
                + "kind: Config\n"
                + "current-context: workload\n"
                + "contexts:\n"
                + "- name: workload\n"
                + "  context:\n"
                + "    cluster: workload\n"
                + "    user: bigfleet-provider\n"
                + "clusters:\n"
                + "- name: workload\n"
                + "  cluster:\n"
                + "    server: " + server + "\n"
                + "    certificate-authority-data: " + caData + "\n"
                + clusterExtra
                + "users:\n"
                + "- name: bigfleet-provider\n"
                + "  user:\n"
                + "    token: " + token + "\n";
    }

    /** Creates a Node whose Ready condition has {@code status}, with {@code reason} and {@code message}. */
    public void node(String name, String status, String reason, String message) {
        admin.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewSpec()
                        .endSpec()
                        .withNewStatus()
                        .withConditions(ready(status, reason, message))
                        .endStatus()
                        .build())
                .create();
    }

    /** Sets the Node's Ready condition. */
    public void setReady(String name, String status, String reason, String message) {
        admin.nodes().withName(name).edit(n -> {
            n.getStatus().setConditions(List.of(ready(status, reason, message)));
            return n;
        });
    }

    private static NodeCondition ready(String status, String reason, String message) {
        return new NodeConditionBuilder()
                .withType("Ready")
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .build();
    }

    /** A pod on {@code node}; {@code owner} is the kind of its controller ("" for none). */
    public Pod pod(String namespace, String name, String node, String owner) {
        PodBuilder pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .withUid(namespace + "-" + name + "-uid")
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("main")
                .withImage("registry.example/app:1")
                .endContainer()
                .endSpec();
        if (!owner.isEmpty()) {
            pod.editMetadata()
                    .addNewOwnerReference()
                    .withApiVersion("apps/v1")
                    .withKind(owner)
                    .withName(name + "-owner")
                    .withUid(name + "-owner-uid")
                    .withController(true)
                    .endOwnerReference()
                    .endMetadata();
        }
        return admin.pods().resource(pod.build()).create();
    }

    /** A static pod's mirror on {@code node}. */
    public Pod mirrorPod(String namespace, String name, String node) {
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .addToAnnotations("kubernetes.io/config.mirror", "0123456789abcdef")
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("main")
                .withImage("registry.k8s.io/kube-apiserver:v1.31.0")
                .endContainer()
                .endSpec()
                .build();
        return admin.pods().resource(pod).create();
    }

    /** The next {@code times} evictions of the pod are refused as a PodDisruptionBudget refuses them. */
    public void refuseEvictions(String namespace, String pod, int times) {
        var expectation = server.expect()
                .post()
                .withPath("/api/v1/namespaces/" + namespace + "/pods/" + pod + "/eviction")
                .andReply(429, request -> {
                    recordEviction(request);
                    return new StatusBuilder()
                            .withStatus("Failure")
                            .withCode(429)
                            .withReason("TooManyRequests")
                            .withMessage("Cannot evict pod as it would violate the pod's disruption budget.")
                            .build();
                });
        if (times < 0) {
            expectation.always();
        } else {
            expectation.times(times);
        }
    }

    /** The requests that changed something made with the bearer token {@code token}: the provider's. */
    public List<String> changesWith(String token) {
        return changesByCredential.stream()
                .filter(e -> e.getKey().equals("Bearer " + token))
                .map(Map.Entry::getValue)
                .toList();
    }

    /** Evictions of {@code pod} that reached the server, refused or not. */
    public List<Eviction> evictionsOf(String pod) {
        return evictions.stream()
                .filter(e -> e.getMetadata().getName().equals(pod))
                .toList();
    }

    private void recordEviction(RecordedRequest request) {
        evictions.add(JSON.unmarshal(new String(request.getBody().getBytes(), StandardCharsets.UTF_8), Eviction.class));
    }

    /** Answers what CRUD mode does not, then hands the request to the mixed dispatcher. */
    private final class Front extends Dispatcher {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String path = request.getPath();
            int q = path.indexOf('?');
            String bare = q < 0 ? path : path.substring(0, q);
            String method = request.getMethod();
            if (!method.equals("GET")) {
                changes.add(method + " " + bare);
                String auth = request.getHeader("Authorization");
                changesByCredential.add(Map.entry(auth == null ? "" : auth, method + " " + bare));
            }
            Matcher eviction = EVICTION.matcher(bare);
            if (method.equals("POST") && eviction.matches() && !expected(request)) {
                return evict(request, eviction.group(1), eviction.group(2));
            }
            String node = nodeSelected(path);
            if (method.equals("GET") && POD_LIST.matcher(bare).matches() && node != null) {
                return podsOn(bare, node);
            }
            return mixed.dispatch(request);
        }

        private boolean expected(RecordedRequest request) {
            Queue<ServerResponse> queued =
                    responses.get(new SimpleRequest(HttpMethod.valueOf(request.getMethod()), request.getPath()));
            return queued != null && !queued.isEmpty();
        }

        private MockResponse evict(RecordedRequest request, String namespace, String name) {
            recordEviction(request);
            MockResponse pod = mixed.dispatch(get("/api/v1/namespaces/" + namespace + "/pods/" + name));
            if (pod.code() == 404) {
                return pod;
            }
            Duration delay = terminationDelay;
            Future<?> unused = kubelet.schedule(
                    () -> admin.pods().inNamespace(namespace).withName(name).delete(),
                    delay.toMillis(),
                    TimeUnit.MILLISECONDS);
            return new MockResponse()
                    .setResponseCode(201)
                    .setBody(JSON.asJson(new StatusBuilder()
                            .withStatus("Success")
                            .withCode(201)
                            .build()));
        }

        private MockResponse podsOn(String bare, String node) {
            MockResponse all = mixed.dispatch(get(bare));
            if (all.code() != 200) {
                return all;
            }
            PodList list = JSON.unmarshal(all.getBody().readUtf8(), PodList.class);
            List<Pod> on = new ArrayList<>();
            for (Pod p : list.getItems()) {
                if (p.getSpec() != null && node.equals(p.getSpec().getNodeName())) {
                    on.add(p);
                }
            }
            list.setItems(on);
            return new MockResponse().setResponseCode(200).setBody(JSON.asJson(list));
        }

        private RecordedRequest get(String path) {
            return new RecordedRequest(
                    "HTTP/1.1", HttpMethod.GET, path, Headers.builder().build(), new Buffer());
        }
    }

    /** The node of a {@code fieldSelector=spec.nodeName=NODE} query, else null. */
    private static String nodeSelected(String path) {
        int q = path.indexOf('?');
        if (q < 0) {
            return null;
        }
        for (String param : path.substring(q + 1).split("&", -1)) {
            String decoded = URLDecoder.decode(param, StandardCharsets.UTF_8);
            if (decoded.startsWith("fieldSelector=")) {
                for (String requirement :
                        decoded.substring("fieldSelector=".length()).split(",", -1)) {
                    if (requirement.startsWith("spec.nodeName=")) {
                        return requirement.substring("spec.nodeName=".length());
                    }
                }
            }
        }
        return null;
    }

    @Override
    public void close() {
        kubelet.shutdownNow();
        admin.close();
        server.destroy();
    }
}
