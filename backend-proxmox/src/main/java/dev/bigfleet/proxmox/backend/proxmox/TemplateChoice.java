package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.api.InstanceType;
import java.util.List;
import java.util.Map;

/**
 * How an instance type's template is chosen, and where that choice was made (the entry's own key
 * or the flag), so a refusal names what the operator wrote. An entry's own choice wins over the
 * flags; {@code --template-tags}, when set, wins over {@code --template-vmid}.
 */
sealed interface TemplateChoice {
    /** What to name in a refusal: {@code --template-tags}, {@code --instance-types "pve.small": templates}, ... */
    String source();

    /** One template for every node: its volumes must then be on shared storage. */
    record ByVmid(long vmid, String source) implements TemplateChoice {}

    /** A template per node, named node by node. */
    record ByMap(Map<String, Long> vmids, String source) implements TemplateChoice {}

    /** On each node, the one template carrying all these tags. */
    record ByTags(List<String> tags, String source) implements TemplateChoice {}

    static TemplateChoice of(InstanceType type, TypeSettings own, List<String> flagTags) {
        String entry = "--instance-types \"" + type.name() + "\": ";
        if (own.templates().isPresent()) {
            return new ByMap(own.templates().get(), entry + "templates");
        }
        if (own.templateTags().isPresent()) {
            return new ByTags(own.templateTags().get(), entry + "template_tags");
        }
        if (own.ownTemplateVmid()) {
            return new ByVmid(type.templateVmid(), entry + "template_vmid");
        }
        if (!flagTags.isEmpty()) {
            return new ByTags(flagTags, "--template-tags");
        }
        return new ByVmid(type.templateVmid(), "--template-vmid");
    }
}
