package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.api.Machine;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every machine id's position in id order. Ids come and go rarely (slots are rendered from
 * offerings) while states change all the time, so the order is computed once per set of ids and
 * a table request sorts by integer rank instead of comparing 100,000 long strings.
 */
final class IdOrder {
    private Map<String, Integer> rank = Map.of();

    /** The rank of each machine of {@code machines}, in that list's order; recomputed when the ids changed. */
    synchronized int[] ranks(List<Machine> machines) {
        int[] out = new int[machines.size()];
        boolean stale = machines.size() != rank.size();
        for (int i = 0; i < out.length && !stale; i++) {
            Integer r = rank.get(machines.get(i).id());
            if (r == null) {
                stale = true;
            } else {
                out[i] = r;
            }
        }
        if (stale) {
            String[] ids = new String[machines.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = machines.get(i).id();
            }
            Arrays.sort(ids);
            Map<String, Integer> fresh = new HashMap<>(ids.length * 2);
            for (int i = 0; i < ids.length; i++) {
                fresh.put(ids[i], i);
            }
            rank = fresh;
            for (int i = 0; i < out.length; i++) {
                out[i] = fresh.get(machines.get(i).id());
            }
        }
        return out;
    }
}
