package dev.bigfleet.proxmox.packaging.helm;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code helm template} output parsed strictly: each document as the Kubernetes type its apiVersion
 * and kind name, and any field that type does not have is an error. fabric8's model classes would
 * keep unknown fields aside (their "additional properties"); this mapper takes that away, so a
 * misspelt or misplaced field fails the parse as the API server would refuse it.
 */
final class KubernetesObjects {
    private static final Map<String, Class<? extends HasMetadata>> TYPES = Map.of(
            "apps/v1 Deployment", Deployment.class,
            "v1 Service", Service.class,
            "v1 ConfigMap", ConfigMap.class,
            "v1 Pod", Pod.class,
            "v1 PersistentVolumeClaim", PersistentVolumeClaim.class,
            "v1 ServiceAccount", ServiceAccount.class,
            "networking.k8s.io/v1 NetworkPolicy", NetworkPolicy.class,
            "policy/v1 PodDisruptionBudget", PodDisruptionBudget.class,
            "monitoring.coreos.com/v1 ServiceMonitor", ServiceMonitor.class,
            "monitoring.coreos.com/v1 PrometheusRule", PrometheusRule.class);

    private static final ObjectMapper STRICT = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .registerModule(new SimpleModule().setDeserializerModifier(new BeanDeserializerModifier() {
                @Override
                public BeanDeserializerBuilder updateBuilder(
                        DeserializationConfig config, BeanDescription description, BeanDeserializerBuilder builder) {
                    builder.setAnySetter(null);
                    return builder;
                }
            }));

    private KubernetesObjects() {}

    static List<HasMetadata> parse(String rendered) throws IOException {
        List<HasMetadata> objects = new ArrayList<>();
        List<JsonNode> documents = new YAMLMapper()
                .readerFor(JsonNode.class)
                .<JsonNode>readValues(rendered)
                .readAll();
        for (JsonNode document : documents) {
            if (document == null || document.isNull() || document.isMissingNode() || document.isEmpty()) {
                continue;
            }
            String type = document.path("apiVersion").asText() + " "
                    + document.path("kind").asText();
            Class<? extends HasMetadata> javaType = TYPES.get(type);
            if (javaType == null) {
                throw new AssertionError("the chart renders an object of an unexpected type: " + type);
            }
            objects.add(STRICT.treeToValue(document, javaType));
        }
        return objects;
    }

    static <T extends HasMetadata> T only(List<HasMetadata> objects, Class<T> type) {
        List<T> found =
                objects.stream().filter(type::isInstance).map(type::cast).toList();
        if (found.size() != 1) {
            throw new AssertionError("expected one " + type.getSimpleName() + ", found " + found.size());
        }
        return found.get(0);
    }

    static <T extends HasMetadata> List<T> all(List<HasMetadata> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
