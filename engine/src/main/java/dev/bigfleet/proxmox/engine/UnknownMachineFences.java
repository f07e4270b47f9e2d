package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.FenceMark;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Fence marks for machine ids the provider does not know. Bounded (least recently used entries
 * go first) so a stream of garbage ids cannot grow memory without limit.
 */
final class UnknownMachineFences {
    private final Map<String, FenceMark> marks;

    UnknownMachineFences(int capacity) {
        this.marks = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, FenceMark> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized FenceMark get(String shardId, String machineId) {
        return marks.get(key(shardId, machineId));
    }

    synchronized void put(String shardId, String machineId, FenceMark mark) {
        marks.put(key(shardId, machineId), mark);
    }

    private static String key(String shardId, String machineId) {
        return shardId.length() + ":" + shardId + machineId;
    }
}
