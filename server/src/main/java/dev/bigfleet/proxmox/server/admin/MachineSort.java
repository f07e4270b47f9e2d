package dev.bigfleet.proxmox.server.admin;

import java.util.Locale;
import java.util.Optional;

/** The columns the machine table sorts by, named as in the JSON. */
public enum MachineSort {
    ID,
    STATE,
    ZONE,
    INSTANCE_TYPE,
    HOST,
    CLUSTER,
    PRICE_PER_HOUR,
    DENSITY,
    TIME_IN_STATE,
    LAST_ERROR;

    public static Optional<MachineSort> parse(String value) {
        try {
            return Optional.of(valueOf(value.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
