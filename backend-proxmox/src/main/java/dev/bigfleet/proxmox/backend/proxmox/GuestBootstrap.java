package dev.bigfleet.proxmox.backend.proxmox;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * How an instance type's guests get their bootstrap blob ({@code "bootstrap"} in its {@code
 * --instance-types} entry):
 *
 * <ul>
 *   <li>{@code agent} (the default): written into the running guest through the qemu guest agent
 *       and run by {@code --bootstrap-exec}; readiness and drain run as guest commands too;
 *   <li>{@code nocloud}: handed to the guest's first boot as the user-data of a cloud-init NoCloud
 *       seed, an ISO uploaded to {@code seed_storage} and attached as a CD-ROM; the node's readiness
 *       and its drain go through the workload cluster's Kubernetes API. Such guests need no guest
 *       agent and no shell (Talos, images whose agent refuses {@code guest-exec}); their clones are
 *       not started by Create.
 * </ul>
 */
record GuestBootstrap(Delivery delivery, Optional<String> seedStorage) {
    /** The default: through the guest agent. */
    static final GuestBootstrap AGENT = new GuestBootstrap(Delivery.AGENT, Optional.empty());

    /** The two deliveries, by the names an entry spells them with. */
    enum Delivery {
        AGENT,
        NOCLOUD;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Optional<Delivery> parse(String text) {
            for (Delivery d : values()) {
                if (d.label().equals(text)) {
                    return Optional.of(d);
                }
            }
            return Optional.empty();
        }
    }

    GuestBootstrap {
        Objects.requireNonNull(delivery, "delivery");
        Objects.requireNonNull(seedStorage, "seedStorage");
        if ((delivery == Delivery.NOCLOUD) != seedStorage.isPresent()) {
            throw new IllegalArgumentException("a seed storage is given exactly for the nocloud delivery");
        }
    }

    static GuestBootstrap nocloud(String seedStorage) {
        return new GuestBootstrap(Delivery.NOCLOUD, Optional.of(seedStorage));
    }

    boolean nocloud() {
        return delivery == Delivery.NOCLOUD;
    }
}
