package dev.bigfleet.proxmox.backend.fake;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Decides which injected fault, if any, applies to a call; with fault mode off, none ever does. */
final class FaultInjector {
    /** Offering label that, in fault mode, makes every Create of the offering's slots fail. */
    static final String CREATE_FAULT_LABEL = "conformance.fault/create";

    static final String CREATE_FAULT_VALUE = "error";

    private final boolean enabled;
    /** VMs whose one failing drain already happened. */
    private final Set<Long> drainedWithError = ConcurrentHashMap.newKeySet();

    FaultInjector(boolean enabled) {
        this.enabled = enabled;
    }

    boolean enabled() {
        return enabled;
    }

    Optional<Fault> forCluster(String clusterId) {
        return enabled && clusterId != null ? Fault.selectedBy(clusterId) : Optional.empty();
    }

    boolean is(Fault fault, String clusterId) {
        return forCluster(clusterId).filter(fault::equals).isPresent();
    }

    /** Whether a Create with these (offering) labels must fail. */
    boolean failsCreate(Map<String, String> labels) {
        return enabled && CREATE_FAULT_VALUE.equals(labels.get(CREATE_FAULT_LABEL));
    }

    /** Whether a drain of this VM, whose node is in {@code clusterId}, must fail. */
    boolean failsDrain(long vmid, String clusterId) {
        return is(Fault.DRAIN_ERROR, clusterId)
                || (is(Fault.DRAIN_ERROR_ONCE, clusterId) && drainedWithError.add(vmid));
    }
}
