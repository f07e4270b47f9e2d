package dev.bigfleet.proxmox.conformance.support;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Hands out SPECULATIVE machines that no earlier test in this JVM has touched, one (or a few) per
 * test. Sharing machines between tests would couple them through state, operation ids and
 * revision deltas; with fresh machines each test starts from a known state and its own history.
 *
 * <p>Machines labelled for fault injection ({@value #FAULT_LABEL_PREFIX}...) are never handed
 * out as ordinary machines; {@link #claimFaultCreate} hands out the ones whose Create must fail.
 */
public final class MachinePool {
    public static final String FAULT_LABEL_PREFIX = "conformance.fault/";
    public static final String FAULT_CREATE_LABEL = "conformance.fault/create";
    public static final String FAULT_CREATE_ERROR = "error";

    private static final Map<String, Set<String>> USED = new HashMap<>();
    private static final Map<String, Deque<String>> CANDIDATES = new HashMap<>();

    private MachinePool() {}

    /** A fresh SPECULATIVE machine with no fault-injection label. */
    public static synchronized String claimSpeculative(ProviderClient client) {
        return claim(client, "plain", MachinePool::isPlain);
    }

    public static synchronized List<String> claimSpeculative(ProviderClient client, int count) {
        List<String> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(claimSpeculative(client));
        }
        return ids;
    }

    /** A fresh SPECULATIVE machine labelled {@code conformance.fault/create=error} (fault profile). */
    public static synchronized String claimFaultCreate(ProviderClient client) {
        return claim(
                client,
                "fault-create",
                m -> FAULT_CREATE_ERROR.equals(m.getLabelsMap().get(FAULT_CREATE_LABEL)));
    }

    private static boolean isPlain(Machine m) {
        return m.getLabelsMap().keySet().stream().noneMatch(k -> k.startsWith(FAULT_LABEL_PREFIX));
    }

    private static String claim(ProviderClient client, String kind, Predicate<Machine> wanted) {
        Set<String> used = USED.computeIfAbsent(client.target(), t -> new HashSet<>());
        Deque<String> candidates = CANDIDATES.computeIfAbsent(client.target() + "|" + kind, k -> new ArrayDeque<>());
        boolean refilled = false;
        while (true) {
            if (candidates.isEmpty()) {
                if (refilled) {
                    throw new AssertionError("inventory exhausted: " + client
                            + " has no SPECULATIVE " + kind + " machine left that this run has not used ("
                            + used.size() + " used)");
                }
                for (Machine m : client.listStates(States.SPECULATIVE).getMachinesList()) {
                    if (!used.contains(m.getId()) && wanted.test(m)) {
                        candidates.add(m.getId());
                    }
                }
                refilled = true;
                continue;
            }
            String id = candidates.poll();
            if (!used.add(id)) {
                continue;
            }
            // re-check: the candidate list may be stale if the server is shared with others
            Machine now = client.get(id);
            if (now.getState() == States.SPECULATIVE && wanted.test(now)) {
                return id;
            }
        }
    }
}
