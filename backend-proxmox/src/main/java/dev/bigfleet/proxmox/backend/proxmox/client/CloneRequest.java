package dev.bigfleet.proxmox.backend.proxmox.client;

import java.util.Optional;

/**
 * The body of {@code POST …/clone}. {@code target} is sent only when the new VM goes to another
 * node than the template's; {@code storage} only with a full clone (Proxmox refuses it for linked
 * ones).
 */
public record CloneRequest(
        long newid,
        String name,
        String description,
        Optional<String> pool,
        Optional<String> target,
        boolean full,
        Optional<String> storage) {

    public CloneRequest {
        if (!full && storage.isPresent()) {
            throw new IllegalArgumentException("a linked clone takes no storage");
        }
    }

    FormParams params() {
        FormParams.Builder b = FormParams.builder()
                .add("newid", newid)
                .add("name", name)
                .add("description", description)
                .flag("full", full);
        pool.ifPresent(p -> b.add("pool", p));
        target.ifPresent(t -> b.add("target", t));
        storage.ifPresent(s -> b.add("storage", s));
        return b.build();
    }
}
