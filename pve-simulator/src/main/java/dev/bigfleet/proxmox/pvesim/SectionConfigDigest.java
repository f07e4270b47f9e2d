package dev.bigfleet.proxmox.pvesim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The {@code digest} of a cluster configuration file ({@code mapping/pci.cfg}, {@code
 * sdn/vnets.cfg}) as {@code PVE::SectionConfig::parse_config} gives it: the SHA-1 of the file's
 * text, in hex.
 */
final class SectionConfigDigest {
    private SectionConfigDigest() {}

    static String of(String fileText) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            return HexFormat.of().formatHex(sha1.digest(fileText.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
