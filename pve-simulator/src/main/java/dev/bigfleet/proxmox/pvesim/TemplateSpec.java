package dev.bigfleet.proxmox.pvesim;

import java.util.Objects;

/**
 * A template VM present when the simulator starts: its boot disk {@code scsi0} ({@code diskGib} on
 * {@code storage}), optionally a cloud-init drive and an installer ISO on {@code local}, one NIC on
 * {@code bridge}, and whether clones inherit an enabled guest agent.
 *
 * @param storage the storage of its disks; null means the first shared storage for VM images, else
 *     the first node-local one
 * @param cloudInitStorage the storage of its cloud-init drive: null for none, empty for {@code storage}
 * @param execBlocked whether its guest's qemu-guest-agent refuses {@code guest-exec} and {@code
 *     guest-exec-status} ({@code block-rpcs} in its {@code /etc/qemu/qemu-ga.conf}); its clones'
 *     guests have the file too
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
        String storage,
        int diskGib,
        String cloudInitStorage,
        boolean iso,
        String bridge,
        boolean execBlocked) {

    public TemplateSpec {
        if (vmid < 100 || vmid > 999_999_999) {
            throw new IllegalArgumentException("template vmid " + vmid + " is outside 100..999999999");
        }
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tags, "tags");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(bridge, "bridge");
        if (cores < 1 || memoryMib < 16 || diskGib < 1) {
            throw new IllegalArgumentException(
                    "template " + vmid + ": cores >= 1, memoryMib >= 16 and diskGib >= 1 required");
        }
    }

    /**
     * A 2-core 2 GiB template with a 32 GiB disk and the guest agent enabled, on the default storage.
     * A null node means the first node of the simulator.
     */
    public static TemplateSpec of(int vmid, String node) {
        return new TemplateSpec(
                vmid,
                node,
                "tmpl-ubuntu-k8s",
                2,
                2048,
                "k8s;template",
                "",
                true,
                null,
                32,
                null,
                false,
                "vmbr0",
                false);
    }

    public TemplateSpec withAgent(boolean enabled) {
        return new TemplateSpec(
                vmid,
                node,
                name,
                cores,
                memoryMib,
                tags,
                description,
                enabled,
                storage,
                diskGib,
                cloudInitStorage,
                iso,
                bridge,
                execBlocked);
    }

    /** Shared: the default storage (shared when the simulator has one); not shared: {@code local-lvm}. */
    public TemplateSpec withSharedStorage(boolean shared) {
        return withStorage(shared ? null : StorageSpec.localLvm().id());
    }

    public TemplateSpec withStorage(String storageId) {
        return new TemplateSpec(
                vmid,
                node,
                name,
                cores,
                memoryMib,
                tags,
                description,
                agent,
                storageId,
                diskGib,
                cloudInitStorage,
                iso,
                bridge,
                execBlocked);
    }

    public TemplateSpec withDiskGib(int gib) {
        return new TemplateSpec(
                vmid,
                node,
                name,
                cores,
                memoryMib,
                tags,
                description,
                agent,
                storage,
                gib,
                cloudInitStorage,
                iso,
                bridge,
                execBlocked);
    }

    /** Adds a cloud-init drive ({@code ide2}) on the template's storage. */
    public TemplateSpec withCloudInit() {
        return withCloudInitOn("");
    }

    /** Adds a cloud-init drive ({@code ide2}) on another storage than the disk's. */
    public TemplateSpec withCloudInitOn(String ciStorage) {
        return new TemplateSpec(
                vmid,
                node,
                name,
                cores,
                memoryMib,
                tags,
                description,
                agent,
                storage,
                diskGib,
                ciStorage,
                iso,
                bridge,
                execBlocked);
    }

    /** Adds an installer ISO ({@code ide0}) on the node-local {@code local} storage. */
    public TemplateSpec withIso() {
        return new TemplateSpec(
                vmid,
                node,
                name,
                cores,
                memoryMib,
                tags,
                description,
                agent,
                storage,
                diskGib,
                cloudInitStorage,
                true,
                bridge,
                execBlocked);
    }

    public TemplateSpec withBridge(String b) {
        return new TemplateSpec(
                vmid,
                node,
                name,
                cores,
                memoryMib,
                tags,
                description,
                agent,
                storage,
                diskGib,
                cloudInitStorage,
                iso,
                b,
                execBlocked);
    }

    public TemplateSpec withTags(String newTags) {
        return new TemplateSpec(
                vmid,
                node,
                name,
                cores,
                memoryMib,
                newTags,
                description,
                agent,
                storage,
                diskGib,
                cloudInitStorage,
                iso,
                bridge,
                execBlocked);
    }

    public TemplateSpec withDescription(String text) {
        return new TemplateSpec(
                vmid,
                node,
                name,
                cores,
                memoryMib,
                tags,
                text,
                agent,
                storage,
                diskGib,
                cloudInitStorage,
                iso,
                bridge,
                execBlocked);
    }

    public TemplateSpec onNode(String n) {
        return new TemplateSpec(
                vmid,
                n,
                name,
                cores,
                memoryMib,
                tags,
                description,
                agent,
                storage,
                diskGib,
                cloudInitStorage,
                iso,
                bridge,
                execBlocked);
    }

    /**
     * A template whose guest's qemu-guest-agent blocks {@code guest-exec} and {@code
     * guest-exec-status}, as a template made for guests that must not run commands from the host:
     * the agent answers them {@code Command guest-exec has been disabled} (in the sandbox lane only).
     */
    public TemplateSpec withExecBlocked() {
        return new TemplateSpec(
                vmid,
                node,
                name,
                cores,
                memoryMib,
                tags,
                description,
                agent,
                storage,
                diskGib,
                cloudInitStorage,
                iso,
                bridge,
                true);
    }
}
