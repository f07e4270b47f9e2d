package dev.bigfleet.proxmox.server.admin;

import java.util.List;

/**
 * What changed since a cursor: the ids (the first few) and the cursor to pass next time.
 * {@code more} says the delta was cut short and the caller should ask again at once.
 */
public record Changes(String cursor, long revision, int changed, boolean more, List<String> ids) {}
