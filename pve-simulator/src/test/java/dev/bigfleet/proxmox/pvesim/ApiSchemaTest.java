package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every route the simulator registers against Proxmox VE 9.1's published API schema ({@link
 * Pve91ApiSchema}): the method and path exist; each parameter the simulator accepts exists there,
 * of the same type and requiredness, its enumeration a subset, its integer range within, its
 * maxLength the same; a string 9.1 constrains (enumeration, pattern, format) is checked by the
 * simulator too; a property string's keys exist in 9.1's format with compatible types. The
 * simulator may model fewer parameters or keys than 9.1 has.
 */
class ApiSchemaTest {
    private static final Pve91ApiSchema SCHEMA = Pve91ApiSchema.load();
    private static Cluster cluster;
    private static List<Router.Route> routes;

    @BeforeAll
    static void routes() {
        cluster = new Cluster(SimulatorConfig.builder()
                .nodes("pve1")
                .token("schema@pve!test=unused")
                .build());
        routes = new ApiRoutes(cluster).router().routes();
    }

    @AfterAll
    static void close() {
        cluster.close();
    }

    private static String key(Router.Route r) {
        return r.method() + " " + Router.template(r).replace("+}", "}");
    }

    @Test
    void theSchemaIsProxmoxVe91s() {
        assertThat(SCHEMA.version()).startsWith("9.1.");
        assertThat(routes).hasSizeGreaterThan(30);
    }

    @Test
    void everyRouteIsAnEndpointOf91() {
        List<String> problems = new ArrayList<>();
        for (Router.Route r : routes) {
            if (!SCHEMA.exists(key(r))) {
                problems.add(key(r) + ": PVE 9.1 has no such endpoint");
            } else if (SCHEMA.endpoint(key(r)) == null) {
                problems.add(key(r) + ": not in the trimmed schema; regenerate it (ApiSchemaGenerator)");
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void everyParameterTheSimulatorAcceptsIsOneOf91sWithCompatibleRules() {
        List<String> problems = new ArrayList<>();
        for (Router.Route r : routes) {
            JsonNode endpoint = SCHEMA.endpoint(key(r));
            if (endpoint == null) {
                continue; // reported above
            }
            for (ParamSpec s : r.schema().specs()) {
                String where = key(r) + " " + s.name() + ": ";
                JsonNode def = Pve91ApiSchema.parameter(endpoint, s.name());
                if (def == null) {
                    problems.add(where + "the simulator accepts it, PVE 9.1 has no such parameter");
                    continue;
                }
                if (s.rootOnly()) {
                    continue; // refused for every token: its value is never looked at
                }
                for (String p : compare(s, def, r.schema().format(s.name()))) {
                    problems.add(where + p);
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    private static List<String> problems(String method, String path, Map<String, List<String>> params) {
        return SCHEMA.problems(new RecordedRequest(method, path, "", 200, params));
    }

    @Test
    void theRequestCheckPassesWhat91TakesAndNamesWhatItRefuses() {
        String config = "/nodes/pve1/qemu/105/config";
        assertThat(problems(
                        "POST",
                        config,
                        Map.of(
                                "net1", List.of("virtio=BC:24:11:00:00:01,bridge=vmbr0,tag=20"),
                                "scsi1", List.of("local-lvm:10,ssd=1,discard=on"),
                                "efidisk0", List.of("local-lvm:1,efitype=4m,pre-enrolled-keys=0"),
                                "ipconfig0", List.of("ip=10.20.0.10/24,gw=10.20.0.1"),
                                "nameserver", List.of("10.20.0.2"),
                                "hostpci0", List.of("mapping=gpu-a100,pcie=1"),
                                "tags", List.of("bigfleet;team-a"),
                                "delete", List.of("ide2,net3"),
                                "bios", List.of("ovmf"))))
                .isEmpty();
        assertThat(problems(
                        "DELETE",
                        "/nodes/pve1/storage/local/content/local:iso/seed.iso",
                        Map.of("delay", List.of("5"))))
                .isEmpty();
        assertThat(problems(
                        "POST",
                        config,
                        Map.of(
                                "net1", List.of("virtio,bridge=vmbr0,host-tunnel=1"),
                                "scsi1", List.of("local-lvm:10,format=cow"),
                                "bios", List.of("uefi"),
                                "onboot", List.of("true"),
                                "cores", List.of("0"),
                                "description", List.of("x".repeat(8193)),
                                "tags", List.of("team-a;no!tag"),
                                "sockets", List.of("1", "2"),
                                "hugepage", List.of("2"))))
                .containsExactlyInAnyOrder(
                        "POST " + config + " (POST /nodes/{node}/qemu/{vmid}/config): "
                                + "net1=virtio,bridge=vmbr0,host-tunnel=1: invalid key in comma-separated list property:"
                                + " host-tunnel",
                        "POST " + config + " (POST /nodes/{node}/qemu/{vmid}/config): "
                                + "scsi1=local-lvm:10,format=cow: key format=cow: not in the enumeration"
                                + " [\"raw\",\"qcow\",\"qed\",\"qcow2\",\"vmdk\",\"cloop\"]",
                        "POST " + config + " (POST /nodes/{node}/qemu/{vmid}/config): "
                                + "bios=uefi: not in the enumeration [\"seabios\",\"ovmf\"]",
                        "POST " + config + " (POST /nodes/{node}/qemu/{vmid}/config): "
                                + "onboot=true: not a boolean (0 or 1)",
                        "POST " + config + " (POST /nodes/{node}/qemu/{vmid}/config): cores=0: below the minimum 1",
                        "POST " + config + " (POST /nodes/{node}/qemu/{vmid}/config): " + "description="
                                + "x".repeat(8193) + ": longer than 8192 characters",
                        "POST " + config + " (POST /nodes/{node}/qemu/{vmid}/config): "
                                + "tags=team-a;no!tag: invalid format - 'no!tag' is not a valid pve-tag",
                        "POST " + config + " (POST /nodes/{node}/qemu/{vmid}/config): sockets: given 2 times",
                        "POST " + config + " (POST /nodes/{node}/qemu/{vmid}/config): "
                                + "hugepage: not a parameter of the endpoint");
        assertThat(problems("POST", "/nodes/pve1/qemu/105/clone", Map.of()))
                .containsExactly("POST /nodes/pve1/qemu/105/clone (POST /nodes/{node}/qemu/{vmid}/clone): "
                        + "newid: missing and not optional");
        assertThat(problems("GET", "/nodes/pve 1/qemu/99/config", Map.of()))
                .containsExactlyInAnyOrder(
                        "GET /nodes/pve 1/qemu/99/config (GET /nodes/{node}/qemu/{vmid}/config): "
                                + "node=pve 1: invalid format - 'pve 1' is not a valid pve-node",
                        "GET /nodes/pve 1/qemu/99/config (GET /nodes/{node}/qemu/{vmid}/config): "
                                + "vmid=99: below the minimum 100");
        assertThat(problems("POST", "/nodes/pve1/qemu/105/nosuch", Map.of()))
                .containsExactly("POST /nodes/pve1/qemu/105/nosuch: PVE 9.1 has no such endpoint");
        assertThat(problems("GET", "/nodes/pve1/qemu/105/rrddata", Map.of()))
                .containsExactly("GET /nodes/pve1/qemu/105/rrddata: GET /nodes/{node}/qemu/{vmid}/rrddata is not in"
                        + " the trimmed schema (regenerate it with ApiSchemaGenerator)");
    }

    private static final Map<ParamType, String> TYPES = Map.of(
            ParamType.BOOLEAN, "boolean",
            ParamType.INTEGER, "integer",
            ParamType.STRING, "string",
            ParamType.ARRAY, "array");

    private static List<String> compare(ParamSpec s, JsonNode def, PropertyString format) {
        List<String> out = new ArrayList<>();
        String type = def.path("type").asText();
        if (!TYPES.get(s.type()).equals(type)) {
            out.add("type " + TYPES.get(s.type()) + ", PVE 9.1 " + type);
            return out;
        }
        boolean optional = def.path("optional").asBoolean(false);
        if (s.required() == optional) {
            out.add((s.required() ? "required" : "optional") + ", PVE 9.1 " + (optional ? "optional" : "required"));
        }
        if (s.type() == ParamType.INTEGER) {
            out.addAll(range(s.min(), s.max(), def));
        }
        if (s.type() == ParamType.STRING) {
            int maxLength = def.path("maxLength").asInt(0);
            if (s.maxLength() != maxLength) {
                out.add("maxLength " + s.maxLength() + ", PVE 9.1 " + (maxLength == 0 ? "none" : maxLength));
            }
            out.addAll(enumeration(s.allowed(), def));
            boolean constrained = def.has("enum") || def.has("pattern") || def.has("format");
            if (constrained && s.allowed() == null && s.check() == null) {
                out.add("any string, PVE 9.1 checks it (" + constraint(def) + ")");
            }
        }
        JsonNode value = s.type() == ParamType.ARRAY ? def.path("items") : def;
        JsonNode fmt = value.path("format");
        if (format != null) {
            out.addAll(keys(format, value));
        } else if (fmt.isObject()) {
            if (s.check() == null && s.type() != ParamType.ARRAY) {
                out.add("PVE 9.1 takes a property string, the simulator any string");
            }
        }
        return out;
    }

    private static String constraint(JsonNode def) {
        return def.has("enum")
                ? "enum " + def.get("enum")
                : def.has("pattern") ? "pattern " + def.get("pattern").asText() : "format " + def.get("format");
    }

    private static List<String> range(long min, long max, JsonNode def) {
        List<String> out = new ArrayList<>();
        if (def.has("minimum") && min < def.get("minimum").asDouble()) {
            out.add("minimum " + min + ", PVE 9.1 " + def.get("minimum").asText());
        }
        if (def.has("maximum") && max > def.get("maximum").asDouble()) {
            out.add("maximum " + max + ", PVE 9.1 " + def.get("maximum").asText());
        }
        return out;
    }

    private static List<String> enumeration(List<String> allowed, JsonNode def) {
        List<String> out = new ArrayList<>();
        if (allowed == null) {
            return out;
        }
        if (!def.has("enum")) {
            out.add("an enumeration, PVE 9.1 none");
            return out;
        }
        List<String> real = new ArrayList<>();
        def.get("enum").forEach(e -> real.add(e.asText()));
        for (String a : allowed) {
            if (!real.contains(a)) {
                out.add("value " + a + " is not in PVE 9.1's enumeration " + real);
            }
        }
        return out;
    }

    /** The simulator's property-string keys against 9.1's format (its keys, or a named format's key names). */
    private static List<String> keys(PropertyString format, JsonNode value) {
        List<String> out = new ArrayList<>();
        JsonNode fmt = value.path("format");
        if (fmt.isTextual() && value.has("formatKeys")) {
            // a registered format: 9.1 publishes its key names (in the type text), not their rules
            Set<String> known = new java.util.HashSet<>();
            value.get("formatKeys").forEach(k -> known.add(k.asText()));
            for (String k : format.keys().keySet()) {
                if (!known.contains(k)) {
                    out.add("key " + k + ": PVE 9.1's format " + fmt.asText() + " has no such key");
                }
            }
            return out;
        }
        if (fmt.isTextual()) {
            return out; // a registered format whose keys 9.1 does not publish (cdrom's pve-qm-ide)
        }
        if (!fmt.isObject()) {
            out.add("a property string, PVE 9.1 a plain value");
            return out;
        }
        for (PropertyString.Key k : format.keys().values()) {
            JsonNode def = fmt.get(k.name());
            if (def == null) {
                out.add("key " + k.name() + ": PVE 9.1's format has no such key");
                continue;
            }
            String type = def.path("type").asText();
            switch (k.kind()) {
                case BOOLEAN:
                    if (!type.equals("boolean")) {
                        out.add("key " + k.name() + ": boolean, PVE 9.1 " + type);
                    }
                    break;
                case INTEGER:
                    if (!type.equals("integer")) {
                        out.add("key " + k.name() + ": integer, PVE 9.1 " + type);
                    } else {
                        range(k.min(), k.max(), def).forEach(p -> out.add("key " + k.name() + ": " + p));
                    }
                    break;
                default:
                    if (type.equals("boolean") || type.equals("integer")) {
                        out.add("key " + k.name() + ": string, PVE 9.1 " + type);
                    }
                    enumeration(k.allowed(), def).forEach(p -> out.add("key " + k.name() + ": " + p));
                    boolean constrained = def.has("enum") || def.has("pattern") || def.has("format");
                    if (constrained && k.allowed() == null && k.check() == null) {
                        out.add("key " + k.name() + ": any string, PVE 9.1 checks it (" + constraint(def) + ")");
                    }
            }
        }
        format.aliases().forEach((alias, target) -> {
            JsonNode def = fmt.get(alias);
            if (def == null || !target.equals(def.path("alias").asText())) {
                out.add("alias " + alias + " of " + target + ": not an alias in PVE 9.1's format");
            }
        });
        return out;
    }
}
