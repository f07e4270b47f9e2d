package dev.bigfleet.proxmox.pvesim;

import java.util.Objects;

/**
 * A template VM present when the simulator starts. {@code sharedStorage} decides whether a clone
 * with {@code target=} another node is allowed (on real clusters only shared storage permits it);
 * {@code agent} decides whether clones inherit an enabled guest agent.
 */
public record TemplateSpec(
        int vmid,
        String node,
        String name,
        int cores,
        int memoryMib,
        String tags,
        String description,
        boolean agent,
        boolean sharedStorage) {

    public TemplateSpec {
        if (vmid < 100 || vmid > 999_999_999) {
            throw new IllegalArgumentException("template vmid " + vmid + " is outside 100..999999999");
        }
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tags, "tags");
        Objects.requireNonNull(description, "description");
        if (cores < 1 || memoryMib < 16) {
            throw new IllegalArgumentException("template " + vmid + ": cores >= 1 and memoryMib >= 16 required");
        }
    }

    /**
     * A 2-core 2 GiB template with the guest agent enabled, on shared storage. A null node means the
     * first node of the simulator.
     */
    public static TemplateSpec of(int vmid, String node) {
        return new TemplateSpec(vmid, node, "tmpl-ubuntu-k8s", 2, 2048, "k8s;template", "", true, true);
    }

    public TemplateSpec withAgent(boolean enabled) {
        return new TemplateSpec(vmid, node, name, cores, memoryMib, tags, description, enabled, sharedStorage);
    }

    public TemplateSpec withSharedStorage(boolean shared) {
        return new TemplateSpec(vmid, node, name, cores, memoryMib, tags, description, agent, shared);
    }

    public TemplateSpec withTags(String newTags) {
        return new TemplateSpec(vmid, node, name, cores, memoryMib, newTags, description, agent, sharedStorage);
    }

    public TemplateSpec withDescription(String text) {
        return new TemplateSpec(vmid, node, name, cores, memoryMib, tags, text, agent, sharedStorage);
    }

    TemplateSpec onNode(String n) {
        return new TemplateSpec(vmid, n, name, cores, memoryMib, tags, description, agent, sharedStorage);
    }
}
