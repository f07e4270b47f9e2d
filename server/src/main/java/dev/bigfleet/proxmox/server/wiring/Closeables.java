package dev.bigfleet.proxmox.server.wiring;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the wiring opened (the state store, the backend), so that a startup that fails half-way
 * releases it: a state file's lock must not outlive a failed start.
 */
public final class Closeables {
    private static final Logger log = LoggerFactory.getLogger(Closeables.class);

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    /** Remembers {@code resource}; returns it. */
    public synchronized <T extends AutoCloseable> T register(T resource) {
        opened.push(resource);
        return resource;
    }

    /** Closes everything registered, the last opened first. */
    public synchronized void closeAll() {
        while (!opened.isEmpty()) {
            AutoCloseable resource = opened.pop();
            try {
                resource.close();
            } catch (Exception e) {
                log.warn(
                        "closing {} after a failed start failed: {}",
                        resource.getClass().getSimpleName(),
                        e.toString());
            }
        }
    }
}
