package dev.bigfleet.proxmox.conformance.target;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Resolves the endpoint of each profile: the system property named by {@link Profile#property()},
 * else a server started once per JVM by a registered {@link ConformanceServerLauncher}.
 */
public final class Targets {
    private static final Map<Profile, Optional<String>> RESOLVED = new EnumMap<>(Profile.class);
    private static final Map<Profile, LaunchedServer> LAUNCHED = new EnumMap<>(Profile.class);

    private Targets() {}

    public static synchronized Optional<String> of(Profile profile) {
        return RESOLVED.computeIfAbsent(profile, Targets::resolve);
    }

    /** The restartable server of the durable profile, when a launcher provides one. */
    public static synchronized Optional<RestartableServer> restartable() {
        of(Profile.DURABLE);
        LaunchedServer server = LAUNCHED.get(Profile.DURABLE);
        return server instanceof RestartableServer r ? Optional.of(r) : Optional.empty();
    }

    private static Optional<String> resolve(Profile profile) {
        if (profile == Profile.DURABLE) {
            // an endpoint named from outside cannot be killed and restarted by the suite
            return launch(profile);
        }
        String named = System.getProperty(profile.property(), "").trim();
        if (!named.isEmpty()) {
            return Optional.of(named);
        }
        if (isSet(Profile.CORE.property()) || isSet(Profile.FAULT.property())) {
            // the caller named endpoints explicitly; do not start servers of our own
            return Optional.empty();
        }
        return launch(profile);
    }

    private static Optional<String> launch(Profile profile) {
        for (ConformanceServerLauncher launcher : ServiceLoader.load(ConformanceServerLauncher.class)) {
            try {
                LaunchedServer server = launcher.start(profile);
                if (server == null) {
                    return Optional.empty();
                }
                LAUNCHED.put(profile, server);
                Runtime.getRuntime().addShutdownHook(new Thread(server::close, "conformance-" + profile));
                return Optional.of(server.target());
            } catch (Exception e) {
                throw new IllegalStateException("could not start a provider for profile " + profile, e);
            }
        }
        return Optional.empty();
    }

    private static boolean isSet(String property) {
        return !System.getProperty(property, "").isBlank();
    }
}
