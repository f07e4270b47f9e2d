package dev.bigfleet.proxmox.backend.proxmox.client;

/** What the provider writes into a clone's config with one synchronous PUT, before the first start. */
public record VmSettings(int cores, long memoryMib, TagList tags, String description, boolean agent) {
    FormParams params() {
        return FormParams.builder()
                .add("cores", cores)
                .add("memory", memoryMib)
                .add("tags", tags.wire())
                .add("description", description)
                .flag("agent", agent)
                .build();
    }
}
