package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.TagList;
import java.util.Locale;
import java.util.Objects;

/**
 * The markers every clone of this provider carries: the {@code bigfleet-} name prefix, the
 * {@code bigfleet} tag, a tag for the provider label, a tag for the machine, and the
 * {@link VmDescription}. The provider tag keeps two providers on one cluster out of each other's
 * way; the description settles what the lossy tags cannot.
 */
final class Markers {
    static final String TAG = "bigfleet";
    static final String NAME_PREFIX = "bigfleet-";
    static final String PROVIDER_TAG_PREFIX = "bigfleet-p-";
    static final String MACHINE_TAG_PREFIX = "bigfleet-m-";
    /** Set while the VM carries a binding, so the Proxmox UI shows which VMs serve a cluster. */
    static final String BOUND_TAG = "bigfleet-bound";

    private static final int MAX_NAME = 63;

    private final String providerLabel;
    private final String providerTag;

    Markers(String providerLabel) {
        this.providerLabel = Objects.requireNonNull(providerLabel, "providerLabel");
        this.providerTag = PROVIDER_TAG_PREFIX + tagSafe(providerLabel);
    }

    String providerLabel() {
        return providerLabel;
    }

    String providerTag() {
        return providerTag;
    }

    String machineTag(String machineId) {
        return MACHINE_TAG_PREFIX + tagSafe(machineId);
    }

    TagList tagsFor(String machineId) {
        return TagList.of(TAG, providerTag, machineTag(machineId));
    }

    /** {@code bigfleet-<type>-<machine id>} as a DNS name: other characters become {@code -}, at most 63. */
    static String vmName(String instanceType, String machineId) {
        String raw = (NAME_PREFIX + instanceType + "-" + machineId).replaceAll("[^A-Za-z0-9-]", "-");
        if (raw.length() > MAX_NAME) {
            raw = raw.substring(0, MAX_NAME);
        }
        return raw.replaceAll("^-+|-+$", "");
    }

    /** What every {@link #vmName} of the type starts with (unless the name was cut at 63 characters). */
    static String vmNamePrefix(String instanceType) {
        return (NAME_PREFIX + instanceType + "-").replaceAll("[^A-Za-z0-9-]", "-");
    }

    VmDescription description(String machineId, String operationId) {
        return new VmDescription(providerLabel, machineId, operationId);
    }

    /**
     * Whether a listed VM may be this provider's, so its description is worth reading: a qemu VM,
     * not a template, tagged with this provider, or named like a clone but not yet tagged for any
     * provider (a Create that died between the clone and the config write).
     */
    boolean candidate(ClusterResource r) {
        if (!r.isQemu() || r.isTemplate()) {
            return false;
        }
        if (r.tags().contains(providerTag)) {
            return true;
        }
        return r.name().map(n -> n.startsWith(NAME_PREFIX)).orElse(false)
                && !r.tags().anyStartsWith(PROVIDER_TAG_PREFIX);
    }

    /** Proxmox tag characters: lower case letters, digits, {@code _ + . -}; anything else becomes {@code -}. */
    static String tagSafe(String value) {
        String t = value.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_+.-]", "-");
        return t.isEmpty() ? "x" : t;
    }
}
