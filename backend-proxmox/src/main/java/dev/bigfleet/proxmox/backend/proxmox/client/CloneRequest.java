package dev.bigfleet.proxmox.backend.proxmox.client;

import java.util.Optional;

/**
 * The body of {@code POST …/clone}: always a full clone. {@code target} is left out when the new
 * VM stays on the template's node; {@code storage} only applies to full clones.
 */
public record CloneRequest(
        long newid,
        String name,
        String description,
        Optional<String> pool,
        Optional<String> target,
        Optional<String> storage) {

    FormParams params() {
        FormParams.Builder b = FormParams.builder()
                .add("newid", newid)
                .add("name", name)
                .add("description", description)
                .flag("full", true);
        pool.ifPresent(p -> b.add("pool", p));
        target.ifPresent(t -> b.add("target", t));
        storage.ifPresent(s -> b.add("storage", s));
        return b.build();
    }
}
