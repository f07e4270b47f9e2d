package dev.bigfleet.proxmox.backend.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The IPv4 addresses one NIC of an instance type's VMs takes its static address from, a {@code
 * networks} entry's {@code addresses}: the subnet ({@code cidr}), the part of it handed out
 * ({@code range}, else every host address but the gateway), the gateway and the DNS servers.
 * Addresses are 32-bit values here; {@link #text} writes them dotted.
 */
record AddressPool(int network, int prefix, int first, int last, Optional<Integer> gateway, List<String> dns) {

    /** The keys of an {@code addresses} object. */
    static final List<String> KEYS = List.of("cidr", "range", "gateway", "dns");

    AddressPool {
        dns = List.copyOf(dns);
    }

    /**
     * {@code {"cidr": "10.20.0.0/24", "range": "10.20.0.10-10.20.0.99", "gateway": "10.20.0.1",
     * "dns": ["10.20.0.2"]}}.
     */
    static AddressPool parse(JsonNode v, String what) {
        if (!v.isObject()) {
            throw new IllegalArgumentException(
                    what + " must be an object such as {\"cidr\": \"10.20.0.0/24\"," + " \"gateway\": \"10.20.0.1\"}");
        }
        v.fieldNames().forEachRemaining(k -> {
            if (!KEYS.contains(k)) {
                throw new IllegalArgumentException(
                        what + ": unknown key \"" + k + "\" (" + String.join(", ", KEYS) + ")");
            }
        });
        String cidr = v.path("cidr").asText("");
        int slash = cidr.indexOf('/');
        Optional<Integer> base = slash > 0 ? address(cidr.substring(0, slash)) : Optional.empty();
        int prefix = slash > 0 && cidr.substring(slash + 1).matches("\\d{1,2}")
                ? Integer.parseInt(cidr.substring(slash + 1))
                : -1;
        if (!v.path("cidr").isTextual() || base.isEmpty() || prefix < 8 || prefix > 30) {
            throw new IllegalArgumentException(what + ": cidr "
                    + (v.path("cidr").isMissingNode()
                            ? "is missing"
                            : v.path("cidr") + " is not an IPv4 subnet of /8 to /30")
                    + " (e.g. \"10.20.0.0/24\")");
        }
        int mask = (int) (0xFFFFFFFFL << (32 - prefix));
        int network = base.get() & mask;
        if (network != base.get()) {
            throw new IllegalArgumentException(
                    what + ": cidr " + cidr + " has host bits set; the subnet is " + text(network) + "/" + prefix);
        }
        int broadcast = network | ~mask;
        Optional<Integer> gateway = Optional.empty();
        if (!v.path("gateway").isMissingNode()) {
            gateway = Optional.of(inSubnet(v.path("gateway"), what + ": gateway", network, broadcast, cidr));
        }
        int first = network + 1;
        int last = broadcast - 1;
        if (!v.path("range").isMissingNode()) {
            String[] ends = v.path("range").asText("").split("-", -1);
            if (!v.path("range").isTextual() || ends.length != 2) {
                throw new IllegalArgumentException(
                        what + ": range " + v.path("range") + " is not FIRST-LAST (e.g. \"10.20.0.10-10.20.0.99\")");
            }
            first = inSubnet(
                    new com.fasterxml.jackson.databind.node.TextNode(ends[0].strip()),
                    what + ": range",
                    network,
                    broadcast,
                    cidr);
            last = inSubnet(
                    new com.fasterxml.jackson.databind.node.TextNode(ends[1].strip()),
                    what + ": range",
                    network,
                    broadcast,
                    cidr);
            if (Integer.compareUnsigned(first, last) > 0) {
                throw new IllegalArgumentException(
                        what + ": range " + v.path("range").asText() + " ends before it starts");
            }
        }
        List<String> dns = new ArrayList<>();
        JsonNode d = v.path("dns");
        if (!d.isMissingNode()) {
            if (!d.isArray() || d.size() > 3) {
                throw new IllegalArgumentException(what + ": dns must be a list of up to 3 IPv4 addresses");
            }
            for (JsonNode server : d) {
                dns.add(text(address(server.asText(""))
                        .filter(x -> server.isTextual())
                        .orElseThrow(() ->
                                new IllegalArgumentException(what + ": dns: " + server + " is not an IPv4 address"))));
            }
        }
        return new AddressPool(network, prefix, first, last, gateway, dns);
    }

    private static int inSubnet(JsonNode v, String what, int network, int broadcast, String cidr) {
        int a = address(v.asText(""))
                .filter(x -> v.isTextual())
                .orElseThrow(() -> new IllegalArgumentException(what + ": " + v + " is not an IPv4 address"));
        if (Integer.compareUnsigned(a, network) <= 0 || Integer.compareUnsigned(a, broadcast) >= 0) {
            throw new IllegalArgumentException(what + ": " + text(a) + " is not a host address of " + cidr);
        }
        return a;
    }

    /** A dotted IPv4 address as its 32-bit value. */
    static Optional<Integer> address(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return Optional.empty();
        }
        int out = 0;
        for (String p : parts) {
            if (!p.matches("0|[1-9]\\d{0,2}") || Integer.parseInt(p) > 255) {
                return Optional.empty();
            }
            out = out << 8 | Integer.parseInt(p);
        }
        return Optional.of(out);
    }

    static String text(int a) {
        return (a >>> 24) + "." + (a >>> 16 & 255) + "." + (a >>> 8 & 255) + "." + (a & 255);
    }

    /** How many addresses it hands out. */
    long size() {
        long n = Integer.toUnsignedLong(last) - Integer.toUnsignedLong(first) + 1;
        return gateway.filter(g -> Integer.compareUnsigned(g, first) >= 0 && Integer.compareUnsigned(g, last) <= 0)
                        .isPresent()
                ? n - 1
                : n;
    }

    /** The lowest address of the range that is not {@code taken} (nor the gateway); empty when none is left. */
    Optional<String> pick(Set<String> taken) {
        for (long a = Integer.toUnsignedLong(first); a <= Integer.toUnsignedLong(last); a++) {
            int candidate = (int) a;
            String t = text(candidate);
            if (!taken.contains(t) && !gateway.equals(Optional.of(candidate))) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** The static address {@code address} of NIC {@code nic} with this pool's prefix, gateway and DNS servers. */
    StaticAddress assign(String nic, String address) {
        return new StaticAddress(nic, address, prefix, gateway.map(AddressPool::text), dns);
    }

    /** {@code 10.20.0.10-10.20.0.99 in 10.20.0.0/24}. */
    String range() {
        return text(first) + "-" + text(last) + " in " + cidr();
    }

    /** {@code 10.20.0.0/24}. */
    String cidr() {
        return text(network) + "/" + prefix;
    }
}
