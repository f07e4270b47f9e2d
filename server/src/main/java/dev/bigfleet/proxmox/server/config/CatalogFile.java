package dev.bigfleet.proxmox.server.config;

import dev.bigfleet.proxmox.server.startup.ConfigException;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --instance-types} file: a JSON object of type name →
 * {@code {"vcpu": 2, "memory_mib": 4096, "template_vmid": 9000}}. It replaces the built-in catalog.
 */
public final class CatalogFile {
    /** One entry as written in the file. */
    record Entry(
            @JsonProperty("vcpu") Integer vcpu,
            @JsonProperty("memory_mib") Long memoryMib,
            @JsonProperty("template_vmid") Long templateVmid) {}

    private CatalogFile() {}

    public static InstanceTypeCatalog load(Path path, long defaultTemplateVmid) throws ConfigException {
        Map<String, Entry> entries = JsonFiles.read("--instance-types", path,
                new TypeReference<LinkedHashMap<String, Entry>>() {});
        if (entries.isEmpty()) {
            throw new ConfigException("--instance-types " + path + ": the catalog has no instance types");
        }
        List<InstanceType> types = new ArrayList<>();
        for (Map.Entry<String, Entry> e : entries.entrySet()) {
            String name = e.getKey();
            Entry entry = e.getValue();
            String where = "--instance-types " + path + ": \"" + name + "\"";
            if (entry == null) {
                throw new ConfigException(where + " is null");
            }
            if (name.isBlank() || name.contains("/") || name.chars().anyMatch(Character::isWhitespace)) {
                throw new ConfigException(where + ": a type name must be non-empty, without '/' or spaces");
            }
            if (entry.vcpu() == null || entry.vcpu() <= 0) {
                throw new ConfigException(where + ": vcpu must be > 0");
            }
            if (entry.memoryMib() == null || entry.memoryMib() <= 0) {
                throw new ConfigException(where + ": memory_mib must be > 0");
            }
            long template = entry.templateVmid() == null || entry.templateVmid() == 0
                    ? defaultTemplateVmid : entry.templateVmid();
            if (template < 0) {
                throw new ConfigException(where + ": template_vmid must be > 0");
            }
            types.add(new InstanceType(name, entry.vcpu(), entry.memoryMib(), template));
        }
        return new InstanceTypeCatalog(types);
    }
}
