package dev.bigfleet.proxmox.server.grpc;

import io.grpc.Status;
import java.util.EnumMap;
import java.util.Map;

/**
 * gRPC status codes as the reference provider writes them in logs and metric labels
 * ({@code OK}, {@code NotFound}, {@code Canceled}), so existing dashboards and queries keep working.
 */
public final class CodeNames {
    private static final Map<Status.Code, String> NAMES = new EnumMap<>(Status.Code.class);

    static {
        for (Status.Code code : Status.Code.values()) {
            StringBuilder name = new StringBuilder();
            for (String word : code.name().split("_", -1)) {
                name.append(word.charAt(0)).append(word.substring(1).toLowerCase(java.util.Locale.ROOT));
            }
            NAMES.put(code, name.toString());
        }
        NAMES.put(Status.Code.OK, "OK");
        NAMES.put(Status.Code.CANCELLED, "Canceled");
    }

    private CodeNames() {}

    public static String of(Status.Code code) {
        return NAMES.get(code);
    }
}
