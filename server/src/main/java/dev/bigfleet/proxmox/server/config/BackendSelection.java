package dev.bigfleet.proxmox.server.config;

import java.util.Locale;

/** Resolves {@code --proxmox-backend}, {@code --use-fake-backend} and the API URL to one backend name. */
public final class BackendSelection {
    public static final String FAKE = "fake";
    public static final String PROXMOX = "proxmox";

    private BackendSelection() {}

    public static String resolve(String backendFlag, boolean useFake, String apiUrl) throws ConfigException {
        if (useFake) {
            return FAKE;
        }
        String requested = backendFlag == null ? "" : backendFlag.trim().toLowerCase(Locale.ROOT);
        if (requested.isEmpty() || requested.equals("auto")) {
            if (apiUrl != null && !apiUrl.isBlank()) {
                return PROXMOX;
            }
            throw new ConfigException("--proxmox-backend auto: no Proxmox credentials detected (--proxmox-api-url is"
                    + " empty); pass --use-fake-backend or --proxmox-backend fake to run on the in-memory fake");
        }
        return requested;
    }
}
