package dev.bigfleet.proxmox.pvesim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Writes {@value Pve91ApiSchema#RESOURCE}, the trimmed Proxmox VE API schema the simulator and the
 * client are checked against, from pve-docs' {@code api-viewer/apidata.js}: every method and path
 * of the API, and for the endpoints the simulator serves the structural facts of each parameter
 * (type, optional, enum, minimum/maximum, maxLength/minLength, pattern, format name or a
 * property-string format's keys, array items, requires), and no description or other text. Two
 * facts come from text: the index range of a {@code name[n]} parameter when its description says
 * {@code (n is A to B)}, and the key names of a named property-string format from its type text.
 *
 * <p>To regenerate (after a simulator route is added, or for a newer Proxmox VE):
 *
 * <pre>
 * git clone https://git.proxmox.com/git/pve-docs.git   # or github.com/proxmox/pve-docs
 * cd /path/to/this/repo
 * mvn -o -q -pl pve-simulator -am test -Dtest=ApiSchemaGenerator -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dpvesim.apidata=/path/to/pve-docs/api-viewer/apidata.js -Dpvesim.apidata.version=9.1.3
 * </pre>
 *
 * The version is pve-docs' (its {@code debian/changelog}); the file is written into this module's
 * {@code src/main/resources}. Without {@code -Dpvesim.apidata} this class does nothing.
 */
class ApiSchemaGenerator {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern INDEXES = Pattern.compile("\\(n is (\\d+) to (\\d+)[,)]");
    private static final Pattern TYPETEXT_KEY = Pattern.compile("([A-Za-z][A-Za-z0-9_-]*)=");
    private static final Set<String> FORMAT_KEY_FACTS = Set.of("default_key", "alias", "keyAlias");

    @Test
    @EnabledIfSystemProperty(named = "pvesim.apidata", matches = ".+")
    void regenerate() throws IOException {
        Path apidata = Path.of(System.getProperty("pvesim.apidata"));
        String version = System.getProperty("pvesim.apidata.version", "unknown");
        Path out = Path.of("src/main/resources").resolve(Pve91ApiSchema.RESOURCE.substring(1));
        Files.writeString(out, generate(Files.readString(apidata, StandardCharsets.UTF_8), version, served()));
    }

    /** {@code METHOD /path} of every route the simulator registers, in Proxmox's path syntax. */
    static Set<String> served() {
        Cluster cluster = new Cluster(SimulatorConfig.builder()
                .nodes("pve1")
                .token("schema@pve!generator=unused")
                .build());
        try {
            Set<String> out = new TreeSet<>();
            for (Router.Route r : new ApiRoutes(cluster).router().routes()) {
                out.add(r.method() + " " + Router.template(r).replace("+}", "}"));
            }
            return out;
        } finally {
            cluster.close();
        }
    }

    static String generate(String apidataJs, String version, Set<String> served) throws IOException {
        JsonNode tree = JSON.readTree(apidataJs.substring(apidataJs.indexOf('['), apidataJs.lastIndexOf(']') + 1));
        Map<String, JsonNode> all = new TreeMap<>();
        List<JsonNode> todo = new ArrayList<>();
        tree.forEach(todo::add);
        while (!todo.isEmpty()) {
            JsonNode n = todo.remove(todo.size() - 1);
            n.path("info")
                    .properties()
                    .forEach(e -> all.put(e.getKey() + " " + n.path("path").asText(), e.getValue()));
            n.path("children").forEach(todo::add);
        }
        StringBuilder b = new StringBuilder("{\n");
        b.append("  \"source\": \"proxmox/pve-docs api-viewer/apidata.js, trimmed by ApiSchemaGenerator\",\n");
        b.append("  \"version\": ").append(JSON.writeValueAsString(version)).append(",\n");
        b.append("  \"all\": [\n");
        List<String> names = new ArrayList<>(all.keySet());
        for (int i = 0; i < names.size(); i++) {
            b.append("    ").append(JSON.writeValueAsString(names.get(i)));
            b.append(i < names.size() - 1 ? ",\n" : "\n");
        }
        b.append("  ],\n  \"endpoints\": {\n");
        List<String> kept = names.stream().filter(served::contains).toList();
        for (int i = 0; i < kept.size(); i++) {
            JsonNode params = all.get(kept.get(i)).path("parameters");
            b.append("    ").append(JSON.writeValueAsString(kept.get(i))).append(": {\n");
            b.append("      \"additionalProperties\": ")
                    .append(params.path("additionalProperties").asInt(0) == 1)
                    .append(",\n      \"parameters\": {");
            List<Map.Entry<String, JsonNode>> props = new ArrayList<>();
            new TreeMap<String, JsonNode>(toMap(params.path("properties")))
                    .entrySet()
                    .forEach(props::add);
            for (int j = 0; j < props.size(); j++) {
                b.append(j == 0 ? "\n" : ",\n");
                b.append("        ")
                        .append(JSON.writeValueAsString(props.get(j).getKey()))
                        .append(": ")
                        .append(JSON.writeValueAsString(trim(props.get(j).getValue())));
            }
            b.append(props.isEmpty() ? "}\n" : "\n      }\n");
            b.append(i < kept.size() - 1 ? "    },\n" : "    }\n");
        }
        b.append("  }\n}\n");
        return b.toString();
    }

    private static Map<String, JsonNode> toMap(JsonNode object) {
        Map<String, JsonNode> m = new TreeMap<>();
        object.properties().forEach(e -> m.put(e.getKey(), e.getValue()));
        return m;
    }

    /** The structural facts of one parameter, of a property-string key, or of an array's items. */
    static ObjectNode trim(JsonNode p) {
        ObjectNode o = JSON.createObjectNode();
        for (String k :
                List.of("type", "enum", "minimum", "maximum", "minLength", "maxLength", "pattern", "requires")) {
            if (p.has(k)) {
                o.set(k, p.get(k));
            }
        }
        if (p.path("optional").asInt(0) == 1) {
            o.put("optional", true);
        }
        for (String k : FORMAT_KEY_FACTS) {
            if (p.has(k)) {
                o.set(k, p.get(k));
            }
        }
        JsonNode format = p.get("format");
        if (format != null && format.isTextual()) {
            o.set("format", format);
            Set<String> keys = new LinkedHashSet<>();
            Matcher m = TYPETEXT_KEY.matcher(p.path("typetext").asText());
            while (m.find()) {
                keys.add(m.group(1));
            }
            if (!keys.isEmpty()) {
                ArrayNode a = o.putArray("formatKeys");
                keys.forEach(a::add);
            }
        } else if (format != null && format.isObject()) {
            ObjectNode f = o.putObject("format");
            toMap(format).forEach((k, v) -> f.set(k, trim(v)));
        }
        if (p.has("items")) {
            o.set("items", trim(p.get("items")));
        }
        Matcher n = INDEXES.matcher(p.path("description").asText());
        if (n.find()) {
            o.putArray("indexes").add(Integer.parseInt(n.group(1))).add(Integer.parseInt(n.group(2)));
        }
        return o;
    }
}
