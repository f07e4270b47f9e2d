package dev.bigfleet.proxmox.backend.proxmox.seed;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a machine's cloud-init reads from a NoCloud seed: its instance id and host name (the file
 * {@code meta-data}), its user-data, and optionally its network configuration (the file {@code
 * network-config}, version 1 or 2 YAML). The seed is delivered as an ISO 9660 image labelled
 * {@code cidata} (see {@link #image(Instant)}), which cloud-init's NoCloud datasource finds by that
 * label and mounts.
 *
 * <p>The user-data is the machine's bootstrap as it was given, byte for byte: it is never decoded,
 * re-encoded or shown, not even by {@link #toString()}.
 */
public final class NoCloudSeed {
    /** The label cloud-init's NoCloud datasource looks for (it accepts {@code CIDATA} too). */
    public static final String VOLUME_ID = "cidata";

    private final String instanceId;
    private final String localHostname;
    private final byte[] userData;
    private final Optional<String> networkConfig;
    private final String metaData;

    /**
     * @param instanceId cloud-init's {@code instance-id}: a new one makes cloud-init run its
     *     first-boot modules again; any non-empty text
     * @param localHostname cloud-init's {@code local-hostname}; any non-empty text (it is quoted,
     *     not checked: whether it is a valid host name is the caller's rule)
     * @param userData the user-data file's bytes, kept verbatim
     * @param networkConfig the {@code network-config} file's text (written as UTF-8), or empty for
     *     no such file
     * @throws IllegalArgumentException for an empty instance id or host name, or one that is not
     *     Unicode text (holds a lone surrogate)
     */
    public NoCloudSeed(String instanceId, String localHostname, byte[] userData, Optional<String> networkConfig) {
        this.instanceId = nonEmpty(instanceId, "instance-id");
        this.localHostname = nonEmpty(localHostname, "local-hostname");
        this.userData = Objects.requireNonNull(userData, "userData").clone();
        this.networkConfig = Objects.requireNonNull(networkConfig, "networkConfig");
        this.metaData = "instance-id: " + YamlString.doubleQuoted(instanceId) + "\n" + "local-hostname: "
                + YamlString.doubleQuoted(localHostname) + "\n";
    }

    public String instanceId() {
        return instanceId;
    }

    public String localHostname() {
        return localHostname;
    }

    /** A copy of the user-data. */
    public byte[] userData() {
        return userData.clone();
    }

    public Optional<String> networkConfig() {
        return networkConfig;
    }

    /**
     * The {@code meta-data} file: a YAML mapping of {@code instance-id} and {@code local-hostname},
     * each value a double-quoted scalar that reads back as exactly the value given.
     */
    public String metaData() {
        return metaData;
    }

    /** The seed's files: {@code meta-data}, {@code network-config} when there is one, {@code user-data}. */
    public List<IsoFile> files() {
        List<IsoFile> files = new ArrayList<>();
        files.add(IsoFile.of("meta-data", metaData.getBytes(StandardCharsets.UTF_8)));
        networkConfig.ifPresent(text -> files.add(IsoFile.of("network-config", text.getBytes(StandardCharsets.UTF_8))));
        files.add(IsoFile.of("user-data", userData));
        return List.copyOf(files);
    }

    /**
     * The seed as an ISO 9660 image labelled {@value #VOLUME_ID}, with Joliet names.
     *
     * @param recorded the time the image records; the same seed and time give the same bytes
     */
    public IsoImage image(Instant recorded) {
        return IsoImage.of(VOLUME_ID, recorded, files());
    }

    @Override
    public String toString() {
        return "NoCloud seed (instance-id " + YamlString.doubleQuoted(instanceId) + ", local-hostname "
                + YamlString.doubleQuoted(localHostname) + ", user-data " + userData.length + " bytes"
                + networkConfig.map(n -> ", network-config").orElse("") + ")";
    }

    private static String nonEmpty(String value, String what) {
        if (Objects.requireNonNull(value, what).isEmpty()) {
            throw new IllegalArgumentException(what + " is empty");
        }
        return value;
    }
}
