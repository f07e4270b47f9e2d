package dev.bigfleet.proxmox.backend.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One NIC an instance type asks for, an entry of its {@code networks} list: the {@code i}-th entry
 * is the clone's {@code net<i>}. What an entry leaves out comes from the template's NIC of that
 * index (or, past the template's NICs, from a plain virtio NIC); the MAC never does, so Proxmox
 * gives every clone fresh ones.
 *
 * @param bridge the bridge (or SDN VNet) the NIC is on
 * @param vlan its VLAN tag, or untagged
 * @param mtu its MTU: 576 to 65520, or 1 for the bridge's (virtio only)
 * @param queues its multiqueue count, 1 to 64 (virtio only)
 * @param firewall whether Proxmox's firewall filters it
 * @param model its NIC model, e.g. virtio or e1000
 * @param addresses the pool its static address is taken from; none for an address by DHCP
 */
record NetworkSpec(
        String bridge,
        Optional<Integer> vlan,
        Optional<Integer> mtu,
        Optional<Integer> queues,
        Optional<Boolean> firewall,
        Optional<String> model,
        Optional<AddressPool> addresses) {

    /** qemu-server's {@code MAX_NETS}: {@code net0} to {@code net31}. */
    static final int MAX = 32;

    /** The keys of an entry. */
    static final List<String> KEYS = List.of("bridge", "vlan", "mtu", "queues", "firewall", "model", "addresses");

    /** The smallest MTU other than 1 (the bridge's), as qemu-server requires for a virtio NIC. */
    static final int MIN_MTU = 576;

    private static final Set<String> VIRTIO_ONLY = Set.of("mtu", "queues");

    /** A NIC on {@code bridge}, tagged {@code vlan}, the rest as the template's: the {@code bridge} and {@code vlan} keys. */
    static NetworkSpec onBridge(String bridge, Optional<Integer> vlan) {
        return new NetworkSpec(
                bridge, vlan, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /**
     * {@code "networks": [{"bridge": "vmbr0", "vlan": 20, "mtu": 9000, "queues": 4, "firewall": true,
     * "model": "virtio"}, ...]}.
     */
    static List<NetworkSpec> parseList(JsonNode v, String where) {
        String what = where + ": networks";
        if (!v.isArray() || v.isEmpty() || v.size() > MAX) {
            throw new IllegalArgumentException(
                    what + " must be a list of 1 to " + MAX + " NICs, each {\"bridge\": NAME, ...} (net0 first)");
        }
        List<NetworkSpec> out = new ArrayList<>();
        for (JsonNode n : v) {
            out.add(parse(n, what + "[" + out.size() + "]"));
        }
        return out;
    }

    private static NetworkSpec parse(JsonNode n, String what) {
        if (!n.isObject()) {
            throw new IllegalArgumentException(what + " must be an object such as {\"bridge\": \"vmbr0\"}");
        }
        n.fieldNames().forEachRemaining(k -> {
            if (!KEYS.contains(k)) {
                throw new IllegalArgumentException(
                        what + ": unknown key \"" + k + "\" (" + String.join(", ", KEYS) + ")");
            }
        });
        JsonNode bridge = n.path("bridge");
        if (!bridge.isTextual() || !bridge.asText().matches(TypeSettings.BRIDGE)) {
            throw new IllegalArgumentException(what + ": bridge "
                    + (bridge.isMissingNode() ? "is missing" : bridge + " is not a bridge name") + " (e.g. \"vmbr0\")");
        }
        Optional<Integer> mtu = number(n, "mtu", what, 1, 65520);
        if (mtu.isPresent() && mtu.get() != 1 && mtu.get() < MIN_MTU) {
            throw new IllegalArgumentException(
                    what + ": mtu must be 1 (the bridge's) or from " + MIN_MTU + " to 65520, got " + mtu.get());
        }
        Optional<String> model = Optional.empty();
        JsonNode m = n.path("model");
        if (!m.isMissingNode()) {
            if (!m.isTextual() || !NicSpec.MODELS.contains(m.asText())) {
                throw new IllegalArgumentException(
                        what + ": model must be one of " + String.join(", ", NicSpec.MODELS) + ", got " + m);
            }
            model = Optional.of(m.asText());
        }
        JsonNode fw = n.path("firewall");
        if (!fw.isMissingNode() && !fw.isBoolean()) {
            throw new IllegalArgumentException(what + ": firewall must be true or false");
        }
        NetworkSpec spec = new NetworkSpec(
                bridge.asText(),
                number(n, "vlan", what, 1, 4094),
                mtu,
                number(n, "queues", what, 1, 64),
                fw.isMissingNode() ? Optional.empty() : Optional.of(fw.asBoolean()),
                model,
                n.path("addresses").isMissingNode()
                        ? Optional.empty()
                        : Optional.of(AddressPool.parse(n.path("addresses"), what + ": addresses")));
        if (model.isPresent() && !model.get().equals("virtio")) {
            spec.virtioOnlyKeys().ifPresent(k -> {
                throw new IllegalArgumentException(what + ": " + k + " is for virtio NICs only (model " + m + ")");
            });
        }
        return spec;
    }

    private static Optional<Integer> number(JsonNode n, String key, String what, int min, int max) {
        JsonNode v = n.path(key);
        if (v.isMissingNode()) {
            return Optional.empty();
        }
        if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            throw new IllegalArgumentException(
                    what + ": " + key + " must be a whole number from " + min + " to " + max + ", got " + v);
        }
        return Optional.of(v.asInt());
    }

    /** The first key set that only a virtio NIC takes ({@code mtu}, {@code queues}), if any. */
    Optional<String> virtioOnlyKeys() {
        if (mtu.isPresent()) {
            return Optional.of("mtu");
        }
        return queues.isPresent() ? Optional.of("queues") : Optional.empty();
    }

    /** The model the NIC ends up with: this entry's, else the template's NIC's, else virtio. */
    String modelOver(Optional<NicSpec> template) {
        return model.orElse(template.map(NicSpec::model).orElse("virtio"));
    }

    /**
     * The {@code net<i>} value to write over the template's NIC of that index (absent past its NICs):
     * the template's model and options, overridden by this entry's, without a MAC.
     */
    String render(Optional<NicSpec> template) {
        Map<String, String> o = new TreeMap<>(template.map(NicSpec::options).orElse(Map.of()));
        o.put("bridge", bridge);
        o.remove("tag");
        vlan.ifPresent(v -> o.put("tag", Integer.toString(v)));
        mtu.ifPresent(v -> o.put("mtu", Integer.toString(v)));
        queues.ifPresent(v -> o.put("queues", Integer.toString(v)));
        firewall.ifPresent(v -> o.put("firewall", v ? "1" : "0"));
        String effective = modelOver(template);
        if (!effective.equals("virtio")) {
            VIRTIO_ONLY.forEach(o::remove);
        }
        StringBuilder b = new StringBuilder(effective);
        o.forEach((k, v) -> b.append(',').append(k).append('=').append(v));
        return b.toString();
    }

    /**
     * The SDN path whose {@code SDN.Use} the NIC needs: {@code /sdn/zones/<zone>/<bridge>[/<vlan>]},
     * in the VNet's zone when the bridge is a VNet, else in {@code localnetwork}.
     */
    String sdnPath(SdnPaths paths) {
        return paths.usePath(bridge, vlan.map(t -> Integer.toString(t)));
    }

    /** Whether {@code actual} (a clone's NIC) is on this entry's bridge and VLAN with its options. */
    boolean matches(Optional<NicSpec> template, Optional<NicSpec> actual) {
        if (actual.isEmpty()) {
            return false;
        }
        return NicSpec.parse(render(template)).equals(actual);
    }
}
