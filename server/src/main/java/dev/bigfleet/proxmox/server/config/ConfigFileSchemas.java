package dev.bigfleet.proxmox.server.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bigfleet.proxmox.spi.BackendOption;
import java.util.List;
import java.util.Map;

/**
 * The JSON Schemas (draft 2020-12) of the provider's JSON files: {@code --offerings}, and, per
 * backend, {@code --instance-types} (the provider's keys plus those the backend declares) and {@code
 * --backend-config} (the backend's options). The provider checks each file against its schema at
 * startup; the same schemas, for the built-in backends, are published for editors under {@code
 * docs/reference/schemas/}. Every property carries a {@code title} and a {@code description}.
 */
public final class ConfigFileSchemas {
    /** The draft every schema is written in. */
    public static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

    /** Where the published schemas live; each one's {@code $id} is this plus its file name. */
    public static final String ID_BASE = "https://bigfleet.dev/proxmox/schemas/";

    /** The key an object file may carry at its top to name its schema for an editor. */
    public static final String SCHEMA_KEY = "$schema";

    static final String VCPU = "vcpu";
    static final String MEMORY = "memory_mib";
    static final String TEMPLATE = "template_vmid";
    static final String ALLOCATABLE = "allocatable";

    /** The keys of an {@code --instance-types} entry that every backend has. */
    static final List<String> BASE_TYPE_KEYS = List.of(VCPU, MEMORY, TEMPLATE, ALLOCATABLE);

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ConfigFileSchemas() {}

    public static String offeringsFileName() {
        return "offerings.schema.json";
    }

    public static String instanceTypesFileName(String backend) {
        return "instance-types." + backend + ".schema.json";
    }

    public static String backendConfigFileName(String backend) {
        return "backend-config." + backend + ".schema.json";
    }

    /** The {@code --offerings} file: an array of offerings; the same for every backend. */
    public static ObjectNode offerings() {
        ObjectNode schema = root(
                offeringsFileName(),
                "Offerings (--offerings)",
                "A JSON array; each entry becomes count Speculative slots of one instance type in one zone."
                        + " Two offerings with the same instance_type and zone are an error.");
        schema.put("type", "array");
        ObjectNode entry = schema.putObject("items");
        entry.put("title", "Offering")
                .put("description", "count slots of one instance type on one Proxmox node.")
                .put("type", "object")
                .put("additionalProperties", false);
        entry.putArray("required").add("instance_type").add("zone").add("count");
        ObjectNode keys = entry.putObject("properties");
        property(
                        keys,
                        "instance_type",
                        "Instance type",
                        "A name of the catalog (--instance-types or the built-in one).")
                .put("type", "string");
        property(keys, "zone", "Zone", "The Proxmox node the slots are on; no '/' or spaces.")
                .put("type", "string");
        property(
                        keys,
                        "capacity_type",
                        "Capacity type",
                        "on_demand (also on-demand, ondemand or empty); spot, reserved and bare metal are refused.")
                .put("type", "string")
                .put("default", "on_demand");
        property(keys, "count", "Count", "How many slots the offering has; must be > 0.")
                .put("type", "integer");
        stringMap(
                property(keys, "resources", "Resources", "Machine.resources: the per-pod request used for density."),
                "Quantity",
                "A Kubernetes quantity, e.g. \"1\" or \"2Gi\".");
        stringMap(
                property(keys, "labels", "Labels", "Machine.labels, passed on verbatim."),
                "Label value",
                "The value of the label named by the key.");
        return schema;
    }

    /**
     * The {@code --instance-types} file for a backend: an object of type name to entry, each entry
     * with the provider's keys and those the backend declares.
     *
     * @param backend the backend's name
     * @param backendKeys the keys it declares ({@code instanceTypeSettings})
     * @param backendSchemas the JSON Schema text of those that have one
     */
    public static ObjectNode instanceTypes(
            String backend, List<String> backendKeys, Map<String, String> backendSchemas) {
        ObjectNode schema = root(
                instanceTypesFileName(backend),
                "Instance types (--instance-types), backend " + backend,
                "A JSON object of instance type name to its size and settings; it replaces the built-in"
                        + " catalog. A name is non-empty, without '/' or spaces.");
        schema.put("type", "object");
        schemaKey(schema.putObject("properties"));
        ObjectNode entry = schema.putObject("additionalProperties");
        entry.put("title", "Instance type")
                .put("description", "The size of the type's VMs and the selected backend's settings for them.")
                .put("type", "object")
                .put("additionalProperties", false);
        entry.putArray("required").add(VCPU).add(MEMORY);
        ObjectNode keys = entry.putObject("properties");
        property(keys, VCPU, "vCPUs", "Virtual CPUs of each VM; must be > 0.").put("type", "integer");
        property(keys, MEMORY, "Memory (MiB)", "Memory of each VM in MiB; must be > 0.")
                .put("type", "integer");
        property(keys, TEMPLATE, "Template VMID", "The template to clone; 0 or missing means --template-vmid.")
                .put("type", "integer")
                .put("minimum", 0);
        ObjectNode allocatable = property(
                keys,
                ALLOCATABLE,
                "Extra allocatable",
                "Kubernetes resources added to the machine's allocatable, a resource name to a quantity,"
                        + " e.g. {\"nvidia.com/gpu\": \"1\"}; cpu and memory come from vcpu and memory_mib.");
        allocatable.put("type", "object");
        ObjectNode quantity = allocatable.putObject("additionalProperties");
        quantity.put("title", "Quantity")
                .put("description", "A Kubernetes quantity, e.g. \"1\", \"500m\" or \"16Gi\".")
                .putArray("type")
                .add("string")
                .add("number");
        for (String key : backendKeys) {
            if (BASE_TYPE_KEYS.contains(key)) {
                continue;
            }
            keys.set(key, backendSetting(backend, key, backendSchemas.get(key)));
        }
        return schema;
    }

    /** The {@code --backend-config} file for a backend: an object of its option names to values. */
    public static ObjectNode backendConfig(String backend, List<BackendOption> options) {
        ObjectNode schema = root(
                backendConfigFileName(backend),
                "Backend options (--backend-config), backend " + backend,
                "A JSON object of the " + backend + " backend's option names to values, the keys --backend-opt"
                        + " takes; --backend-opt and flag aliases win over the file.");
        schema.put("type", "object").put("additionalProperties", false);
        ObjectNode keys = schema.putObject("properties");
        schemaKey(keys);
        for (BackendOption option : options) {
            String description = option.description()
                    + (option.flags().isEmpty() ? "" : " Flag: " + String.join(", ", option.flags()) + ".")
                    + (option.secret() ? " Secret: never logged or quoted in an error." : "");
            ObjectNode p = property(keys, option.name(), option.name(), description.trim());
            ArrayNode type = p.putArray("type");
            if (option.isSwitch()) {
                type.add("boolean").add("string");
            } else if (option.secret()) {
                type.add("string");
                p.put("writeOnly", true);
            } else {
                type.add("string").add("number");
            }
            option.defaultValue().ifPresent(d -> p.put("default", d));
        }
        return schema;
    }

    private static ObjectNode root(String fileName, String title, String description) {
        ObjectNode schema = NODES.objectNode();
        schema.put("$schema", DIALECT)
                .put("$id", ID_BASE + fileName)
                .put("title", title)
                .put("description", description);
        return schema;
    }

    private static ObjectNode property(ObjectNode properties, String key, String title, String description) {
        return properties.putObject(key).put("title", title).put("description", description);
    }

    private static void stringMap(ObjectNode property, String valueTitle, String valueDescription) {
        property.put("type", "object")
                .putObject("additionalProperties")
                .put("title", valueTitle)
                .put("description", valueDescription)
                .put("type", "string");
    }

    private static void schemaKey(ObjectNode properties) {
        property(
                        properties,
                        SCHEMA_KEY,
                        "Schema",
                        "The JSON Schema an editor checks this file with; the provider ignores it.")
                .put("type", "string");
    }

    /** A backend's key: its own schema, given a title and description when it has none. */
    private static ObjectNode backendSetting(String backend, String key, String schemaText) {
        ObjectNode out = NODES.objectNode();
        out.put("title", key).put("description", "Read by the " + backend + " backend.");
        if (schemaText == null) {
            return out;
        }
        JsonNode declared;
        try {
            declared = JsonFiles.writer().readTree(schemaText);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(
                    "backend " + backend + " declares a schema for \"" + key + "\" that is not JSON", e);
        }
        if (!declared.isObject()) {
            throw new IllegalStateException(
                    "backend " + backend + " declares a schema for \"" + key + "\" that is not an object");
        }
        out.setAll((ObjectNode) declared);
        return out;
    }
}
