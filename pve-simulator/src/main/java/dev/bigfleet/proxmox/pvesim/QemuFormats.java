package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.Map;

/** qemu-server's property-string formats for the config options the simulator checks: agent, net, cpu, hostpci. */
final class QemuFormats {
    static final List<String> NIC_MODELS = List.of(
            "e1000",
            "e1000-82540em",
            "e1000-82544gc",
            "e1000-82545em",
            "e1000e",
            "i82551",
            "i82557b",
            "i82559er",
            "ne2k_isa",
            "ne2k_pci",
            "pcnet",
            "rtl8139",
            "virtio",
            "vmxnet3");

    static final PropertyString AGENT = new PropertyString()
            .bool("enabled")
            .defaultKey("enabled")
            .requires("enabled")
            .bool("fstrim_cloned_disks")
            .bool("freeze-fs")
            .alias("freeze-fs-on-backup", "freeze-fs")
            .alias("guest-fsfreeze", "freeze-fs")
            .oneOf("type", List.of("virtio", "isa"));

    static final PropertyString NET = net();

    /**
     * {@code ipconfigN}: the addresses Proxmox writes into a cloud-init drive: {@code ip} ({@code
     * dhcp} or an IPv4 CIDR), {@code gw}, {@code ip6} ({@code dhcp}, {@code auto} or an IPv6 CIDR),
     * {@code gw6}.
     */
    static final PropertyString IPCONFIG = new PropertyString()
            .string(
                    "ip",
                    v -> v.equals("dhcp") || v.matches("\\d{1,3}(\\.\\d{1,3}){3}/\\d{1,2}")
                            ? null
                            : "value does not look like a valid IPv4 network configuration")
            .string(
                    "gw",
                    v -> v.matches("\\d{1,3}(\\.\\d{1,3}){3}") ? null : "value does not look like a valid IPv4 address")
            .string(
                    "ip6",
                    v -> v.equals("dhcp") || v.equals("auto") || v.matches("[0-9a-fA-F:]+/\\d{1,3}")
                            ? null
                            : "value does not look like a valid IPv6 network configuration")
            .string("gw6", v -> v.matches("[0-9a-fA-F:]+") ? null : "value does not look like a valid IPv6 address");

    /** {@code hostpciN}: a host device by address (root only) or a cluster mapping by id (the keys the simulator knows). */
    static final PropertyString HOSTPCI = new PropertyString()
            .string("host", null)
            .defaultKey("host")
            .string(
                    "mapping",
                    v -> v.matches("[A-Za-z][A-Za-z0-9_-]*")
                            ? null
                            : "invalid format - value does not look like a valid configuration ID")
            .bool("pcie")
            .bool("rombar")
            .bool("x-vga")
            .string("mdev", null);

    /** {@code hostpciN}'s whole value: one of host or mapping. */
    static String hostpciCheck(String value) {
        Map<String, String> dev;
        try {
            dev = HOSTPCI.parse(value);
        } catch (IllegalArgumentException e) {
            return "invalid format - " + e.getMessage();
        }
        if (dev.containsKey("host") && dev.containsKey("mapping")) {
            return "Cannot set both 'host' and 'mapping'.";
        }
        if (!dev.containsKey("host") && !dev.containsKey("mapping")) {
            return "Either 'host' or 'mapping' must be set.";
        }
        return null;
    }

    static final PropertyString CPU = new PropertyString()
            .string("cputype", null)
            .defaultKey("cputype")
            .string("reported-model", null)
            .bool("hidden")
            .string(
                    "hv-vendor-id",
                    v -> v.matches("[a-zA-Z0-9]{1,12}") ? null : "value does not match the regex pattern")
            .string(
                    "flags",
                    v -> v.matches("[+-][a-zA-Z0-9\\-_.]+(;[+-][a-zA-Z0-9\\-_.]+)*")
                            ? null
                            : "value does not match the regex pattern")
            .integer("guest-phys-bits", 32, 64)
            .string(
                    "phys-bits",
                    v -> v.equals("host")
                                    || (v.matches("\\d{1,2}") && Integer.parseInt(v) >= 8 && Integer.parseInt(v) <= 64)
                            ? null
                            : "invalid format - value must be an integer between 8 and 64 or 'host'");

    private QemuFormats() {}

    private static PropertyString net() {
        PropertyString p = new PropertyString()
                .string(
                        "macaddr",
                        v -> v.matches("(?i)[a-f0-9][02468ace](:[a-f0-9]{2}){5}")
                                ? null
                                : "invalid format - value does not look like a valid unicast MAC address")
                .oneOf("model", NIC_MODELS)
                .defaultKey("model")
                .requires("model")
                .string(
                        "bridge",
                        v -> v.matches("[-_.\\w\\d]+") ? null : "invalid format - invalid bridge ID '" + v + "'")
                .integer("queues", 0, 64)
                .string(
                        "rate",
                        v -> v.matches("\\d+(\\.\\d+)?") ? null : "type check ('number') failed - got '" + v + "'")
                .integer("tag", 1, 4094)
                .string(
                        "trunks",
                        v -> v.matches("\\d+(?:-\\d+)?(?:;\\d+(?:-\\d+)?)*")
                                ? null
                                : "value does not match the regex pattern")
                .bool("firewall")
                .bool("link_down")
                .integer("mtu", 1, 65520);
        for (String model : NIC_MODELS) {
            p.keyAlias(model, "model", "macaddr");
        }
        return p;
    }

    /**
     * qemu-server's {@code validate_vm_cpu_conf} on top of the format: the model must exist, and a
     * VM may not set {@code reported-model}.
     */
    static String cpuCheck(String value) {
        Map<String, String> cpu;
        try {
            cpu = CPU.parse(value);
        } catch (IllegalArgumentException e) {
            return "invalid format - " + e.getMessage();
        }
        String type = cpu.get("cputype");
        if (type != null && type.startsWith("custom-")) {
            return "invalid format - Custom cputype '" + type.substring(7) + "' not found";
        }
        if (type != null && !CpuModels.known(type)) {
            return "invalid format - Built-in cputype '" + type + "' is not defined (missing 'custom-' prefix?)";
        }
        if (cpu.containsKey("reported-model")) {
            return "invalid format - Property 'reported-model' not allowed in VM-specific CPU config.";
        }
        return null;
    }

    /** {@code virtio=MAC,bridge=...}: the model with the MAC as its value, then the other keys sorted. */
    static String printNet(Map<String, String> net) {
        StringBuilder b = new StringBuilder(net.get("model")).append('=').append(net.get("macaddr"));
        net.keySet().stream()
                .filter(k -> !k.equals("model") && !k.equals("macaddr"))
                .sorted()
                .forEach(k -> b.append(',').append(k).append('=').append(net.get(k)));
        return b.toString();
    }
}
