package dev.bigfleet.proxmox.docs.reference;

import java.util.List;

/** Every page this module generates, and the command that rewrites them all. */
public final class ReferencePages {
    /** Rewrites every committed page from the code (the test compares them otherwise). */
    public static final String REGENERATE_COMMAND = "mvn -pl docs-reference -am test -Dtest=ReferencePagesTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dreference.update=true";

    private ReferencePages() {}

    public static List<ReferencePage> all() {
        return List.of(
                new ProviderFlagsPage(),
                new BigfleetctlFlagsPage(),
                new SimulatorFlagsPage(),
                new BackendOptionsPage(),
                new MetricsPage());
    }
}
