package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.VmConfig;
import dev.bigfleet.proxmox.backend.proxmox.seed.YamlString;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A NoCloud seed's {@code network-config} (version 2) for a VM with static addresses: each of its
 * NICs matched by its MAC, those with a static address given it with the default route through its
 * gateway and its DNS servers, the others left to DHCP (a seed's network configuration replaces the
 * guest's own, so every NIC is in it).
 */
final class NetworkConfig {
    private NetworkConfig() {}

    /** The file's text; empty when the VM has no static address. */
    static Optional<String> render(List<StaticAddress> addresses, VmConfig config) {
        if (addresses.isEmpty()) {
            return Optional.empty();
        }
        Map<Integer, String> macs = new TreeMap<>();
        config.entries().forEach((key, value) -> {
            if (key.matches("net\\d+")) {
                mac(value).ifPresent(m -> macs.put(Integer.parseInt(key.substring(3)), m));
            }
        });
        StringBuilder b = new StringBuilder("version: 2\nethernets:\n");
        for (Map.Entry<Integer, String> nic : macs.entrySet()) {
            String name = "net" + nic.getKey();
            b.append("  ").append(name).append(":\n");
            b.append("    match:\n      macaddress: ")
                    .append(YamlString.doubleQuoted(nic.getValue()))
                    .append('\n');
            Optional<StaticAddress> a =
                    addresses.stream().filter(x -> x.nic().equals(name)).findFirst();
            if (a.isEmpty()) {
                b.append("    dhcp4: true\n");
                continue;
            }
            b.append("    addresses:\n      - ")
                    .append(YamlString.doubleQuoted(a.get().cidr()))
                    .append('\n');
            a.get()
                    .gateway()
                    .ifPresent(g -> b.append("    routes:\n      - to: \"0.0.0.0/0\"\n        via: ")
                            .append(YamlString.doubleQuoted(g))
                            .append('\n'));
            if (!a.get().dns().isEmpty()) {
                b.append("    nameservers:\n      addresses:\n");
                a.get()
                        .dns()
                        .forEach(d -> b.append("        - ")
                                .append(YamlString.doubleQuoted(d))
                                .append('\n'));
            }
        }
        return Optional.of(b.toString());
    }

    /** The MAC of a NIC entry ({@code virtio=BC:24:11:00:00:10,...} or {@code macaddr=}), lower-cased. */
    private static Optional<String> mac(String nic) {
        for (String part : nic.split(",", -1)) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                String k = part.substring(0, eq);
                String v = part.substring(eq + 1);
                if ((NicSpec.MODELS.contains(k) || k.equals("macaddr"))
                        && v.matches("(?i)[0-9a-f]{2}(:[0-9a-f]{2}){5}")) {
                    return Optional.of(v.toLowerCase(Locale.ROOT));
                }
            }
        }
        return Optional.empty();
    }
}
