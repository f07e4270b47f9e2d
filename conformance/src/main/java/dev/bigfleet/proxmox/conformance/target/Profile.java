package dev.bigfleet.proxmox.conformance.target;

/** The kind of server a group of behaviours needs. */
public enum Profile {
    /** An ordinary provider: core and cloud behaviours. */
    CORE("conformance.target"),
    /** A provider in fault mode ({@code --fake-faults}) with a short transition timeout. */
    FAULT("conformance.fault-target"),
    /**
     * A provider with durable state ({@code --state}) that the suite can kill and restart: only
     * available through a {@link ConformanceServerLauncher} whose server is a {@link RestartableServer}.
     */
    DURABLE("conformance.durable-target");

    private final String property;

    Profile(String property) {
        this.property = property;
    }

    /** The system property (or JUnit configuration parameter) that names this profile's endpoint. */
    public String property() {
        return property;
    }
}
