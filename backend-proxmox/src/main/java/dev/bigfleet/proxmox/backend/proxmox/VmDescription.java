package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.VmBinding;
import java.util.Objects;
import java.util.Optional;

/**
 * The ownership record written into a clone's description: the provider label, the machine id
 * verbatim and the operation that created it, one per line so ids with any printable character
 * survive. It is what every destructive or secret-bearing action checks first; tags and names
 * only pick candidates, because they are lossy (lower-cased, shortened). From a Configure until its
 * Drain it also carries the machine's binding ({@link BindingLine}), so that a provider that lost
 * its state rebuilds the machine as CONFIGURED, and from its Create the static addresses its NICs
 * were given ({@link StaticAddress}), so that a rebuild finds them, and the template (and its
 * config's digest) it was cloned from ({@link TemplateRef}), so that a changed template shows.
 */
record VmDescription(
        String provider,
        String machineId,
        String operationId,
        Optional<VmBinding> binding,
        java.util.List<StaticAddress> addresses,
        Optional<TemplateRef> template) {
    static final String HEADER = "BigFleet managed VM. Do not edit the lines below.";
    private static final String PROVIDER = "bigfleet-provider=";
    private static final String MACHINE = "bigfleet-machine-id=";
    private static final String OPERATION = "bigfleet-operation-id=";

    VmDescription {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(machineId, "machineId");
        Objects.requireNonNull(operationId, "operationId");
        Objects.requireNonNull(binding, "binding");
        addresses = java.util.List.copyOf(addresses);
        Objects.requireNonNull(template, "template");
    }

    VmDescription(String provider, String machineId, String operationId) {
        this(provider, machineId, operationId, Optional.empty(), java.util.List.of(), Optional.empty());
    }

    VmDescription withBinding(Optional<VmBinding> next) {
        return new VmDescription(provider, machineId, operationId, next, addresses, template);
    }

    /** With the static addresses its NICs were given, one line each. */
    VmDescription withAddresses(java.util.List<StaticAddress> next) {
        return new VmDescription(provider, machineId, operationId, binding, next, template);
    }

    /** With the template it was cloned from. */
    VmDescription withTemplate(Optional<TemplateRef> from) {
        return new VmDescription(provider, machineId, operationId, binding, addresses, from);
    }

    /** Whether a value can be stored on one description line and read back unchanged. */
    static boolean storable(String value) {
        return value.chars().noneMatch(c -> c == '\n' || c == '\r')
                && value.strip().equals(value);
    }

    String render() {
        StringBuilder b = new StringBuilder(HEADER)
                .append('\n')
                .append(PROVIDER)
                .append(provider)
                .append('\n')
                .append(MACHINE)
                .append(machineId)
                .append('\n')
                .append(OPERATION)
                .append(operationId);
        template.ifPresent(t -> b.append('\n').append(t.line()));
        addresses.forEach(a -> b.append('\n').append(a.line()));
        binding.ifPresent(x -> b.append('\n').append(BindingLine.render(x)));
        return b.toString();
    }

    /** Reads the markers back; empty when the text is not a BigFleet description. */
    static Optional<VmDescription> parse(Optional<String> text) {
        if (text.isEmpty()) {
            return Optional.empty();
        }
        String provider = null;
        String machine = null;
        String operation = "";
        Optional<VmBinding> binding = Optional.empty();
        java.util.List<StaticAddress> addresses = new java.util.ArrayList<>();
        Optional<TemplateRef> template = Optional.empty();
        for (String line : text.get().split("\r?\n", -1)) {
            if (line.startsWith(PROVIDER) && provider == null) {
                provider = line.substring(PROVIDER.length());
            } else if (line.startsWith(MACHINE) && machine == null) {
                machine = line.substring(MACHINE.length());
            } else if (line.startsWith(OPERATION)) {
                operation = line.substring(OPERATION.length()).strip();
            } else if (line.startsWith(BindingLine.PREFIX)) {
                binding = Optional.of(BindingLine.parse(line.strip()));
            } else if (line.startsWith(StaticAddress.LINE)) {
                StaticAddress.parse(line.strip()).ifPresent(addresses::add);
            } else if (line.startsWith(TemplateRef.LINE)) {
                template = TemplateRef.parse(line.strip());
            }
        }
        if (provider == null || machine == null) {
            return Optional.empty();
        }
        return Optional.of(new VmDescription(provider, machine, operation, binding, addresses, template));
    }

    boolean belongsTo(String providerLabel, String machine) {
        return provider.equals(providerLabel) && machineId.equals(machine);
    }
}
