package dev.bigfleet.proxmox.backend.proxmox;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The static IPv4 address one NIC of a VM was given, with what its guest needs beside it (prefix,
 * gateway, DNS servers). Kept on the VM twice: as a line of its description ({@link #line}), the
 * record a rebuild from the cluster reads back, and as a tag ({@link #tag}), which the cluster
 * listing shows for every VM at once, so no other machine is handed the same address.
 */
record StaticAddress(String nic, String address, int prefix, Optional<String> gateway, List<String> dns) {
    static final String LINE = "bigfleet-address=";
    static final String TAG = "bigfleet-ip-";

    StaticAddress {
        dns = List.copyOf(dns);
    }

    /** {@code bigfleet-address=net0 10.20.0.12/24 gw=10.20.0.1 dns=10.20.0.2,10.20.0.3}. */
    String line() {
        return LINE + nic + " " + address + "/" + prefix
                + gateway.map(g -> " gw=" + g).orElse("") + (dns.isEmpty() ? "" : " dns=" + String.join(",", dns));
    }

    /** A description line read back; empty when it is not one this class wrote. */
    static Optional<StaticAddress> parse(String line) {
        if (!line.startsWith(LINE)) {
            return Optional.empty();
        }
        String[] parts = line.substring(LINE.length()).strip().split(" ", -1);
        if (parts.length < 2 || !parts[0].matches("net\\d+") || !parts[1].matches("[\\d.]+/\\d{1,2}")) {
            return Optional.empty();
        }
        String[] cidr = parts[1].split("/", -1);
        Optional<String> gateway = Optional.empty();
        List<String> dns = new ArrayList<>();
        for (int i = 2; i < parts.length; i++) {
            if (parts[i].startsWith("gw=")) {
                gateway = Optional.of(parts[i].substring(3));
            } else if (parts[i].startsWith("dns=")) {
                dns.addAll(List.of(parts[i].substring(4).split(",", -1)));
            }
        }
        return Optional.of(new StaticAddress(parts[0], cidr[0], Integer.parseInt(cidr[1]), gateway, dns));
    }

    /** The tag that marks the address taken: {@code bigfleet-ip-10.20.0.12}. */
    String tag() {
        return TAG + address;
    }

    /** Proxmox's {@code ipconfig<N>} value for a template's cloud-init drive: {@code ip=10.20.0.12/24,gw=10.20.0.1}. */
    String ipconfig() {
        return "ip=" + address + "/" + prefix + gateway.map(g -> ",gw=" + g).orElse("");
    }

    /** {@code 10.20.0.12/24}. */
    String cidr() {
        return address + "/" + prefix;
    }
}
