package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The current config digest of each template the placements clone, read again at most every {@link
 * #FRESH} and only when asked (so a reconcile pass costs no extra call): a VM whose recorded digest
 * ({@link TemplateRef}) differs was cloned from an older config of its template.
 */
final class TemplateDigests {
    static final Duration FRESH = Duration.ofMinutes(5);

    private final PveClient api;
    private final Supplier<Collection<Template>> templates;
    private final Map<Long, String> digests = new HashMap<>();
    private long readAt = Long.MIN_VALUE;

    TemplateDigests(PveClient api, Supplier<Collection<Template>> templates) {
        this.api = api;
        this.templates = templates;
    }

    /** Why a VM cloned from {@code ref} is out of date, or empty when its template is unchanged (or unread). */
    Optional<String> drift(TemplateRef ref) {
        String now = current().get(ref.vmid());
        if (now == null || now.equalsIgnoreCase(ref.digest())) {
            return Optional.empty();
        }
        return Optional.of("template " + ref.vmid() + " changed since the clone");
    }

    /**
     * Reads {@code t}'s digest now (a Create, right after its clone: what it cloned), keeping it as
     * the template's current one; on a failed read, the last one known.
     */
    Optional<TemplateRef> readNow(Template t) {
        try {
            Optional<String> digest = api.config(t.node(), t.vmid()).entry("digest");
            synchronized (this) {
                digest.ifPresent(d -> digests.put(t.vmid(), d));
            }
        } catch (PveApiException e) {
            // the last digest known stands
        }
        return known(t);
    }

    /** {@code t} with the digest last read of it (at startup, by a Create, or by a refresh). */
    synchronized Optional<TemplateRef> known(Template t) {
        String d = digests.get(t.vmid());
        return d != null ? Optional.of(new TemplateRef(t.vmid(), d)) : TemplateRef.of(t);
    }

    private synchronized Map<Long, String> current() {
        long now = System.nanoTime();
        if (readAt != Long.MIN_VALUE && now - readAt < FRESH.toNanos()) {
            return digests;
        }
        readAt = now;
        for (Template t : templates.get()) {
            try {
                api.config(t.node(), t.vmid()).entry("digest").ifPresent(d -> digests.put(t.vmid(), d));
            } catch (PveApiException e) {
                // unreadable now: the last digest read stands
            }
        }
        return digests;
    }
}
