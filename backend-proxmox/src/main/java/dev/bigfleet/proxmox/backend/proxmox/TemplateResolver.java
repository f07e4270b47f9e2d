package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.VmConfig;
import dev.bigfleet.proxmox.spi.BackendContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Startup: resolves every (instance type, offering node) pair to the template it clones, reads
 * each template's config once, and hands each placement to {@link PlacementCheck}. A pair that
 * cannot work stops startup with one line naming the choice, the type, the node and the reason.
 */
final class TemplateResolver {
    private final PveClient api;
    private final ProxmoxSettings settings;
    private final Map<Long, Template> templates = new HashMap<>();

    TemplateResolver(PveClient api, ProxmoxSettings settings) {
        this.api = api;
        this.settings = settings;
    }

    PlacementPlan resolve(BackendContext context, List<ClusterResource> listed, PlacementCheck check) {
        List<Placement> out = new ArrayList<>();
        Set<String> done = new LinkedHashSet<>();
        for (Offering o : context.offerings()) {
            Optional<InstanceType> type = context.catalog().find(o.instanceType());
            if (type.isEmpty() || !done.add(o.instanceType() + "@" + o.zone())) {
                continue;
            }
            out.add(place(type.get(), o.zone(), listed, check));
        }
        return new PlacementPlan(out);
    }

    private Placement place(InstanceType type, String node, List<ClusterResource> listed, PlacementCheck check) {
        Placement p = choose(type, node, listed);
        check.check(p, where(type, node), modeSource(type));
        return p;
    }

    /** The template and clone mode for {@code type} on {@code node}, before any placement check. */
    Placement choose(InstanceType type, String node, List<ClusterResource> listed) {
        TypeSettings own = TypeSettings.of(type);
        TemplateChoice choice = TemplateChoice.of(type, own, settings.templateTags());
        String where = where(type, node);
        CloneMode mode = own.cloneMode().orElse(settings.cloneMode());
        if (mode == CloneMode.LINKED && settings.cloneStorage().isPresent()) {
            throw new IllegalArgumentException(modeSource(type) + ": linked clones of " + type.name() + " stay on the"
                    + " template's storage; Proxmox refuses --clone-storage for them");
        }
        ClusterResource found = pick(choice, node, listed, where);
        Template template = templates.computeIfAbsent(found.vmid(), vmid -> read(found, where));
        return new Placement(type, node, template, mode, VmShape.of(own), settings.cloneStorage(), own.bootstrap());
    }

    /** The prefix of a message about {@code type} on {@code node}: the flag its template choice comes from. */
    String where(InstanceType type, String node) {
        TemplateChoice choice = TemplateChoice.of(type, TypeSettings.of(type), settings.templateTags());
        return choice.source() + ": instance type " + type.name() + " on node " + node + ": ";
    }

    /** The flag {@code type}'s clone mode comes from. */
    static String modeSource(InstanceType type) {
        return TypeSettings.of(type).cloneMode().isPresent()
                ? "--instance-types \"" + type.name() + "\": clone_mode"
                : "--clone-mode";
    }

    private ClusterResource pick(TemplateChoice choice, String node, List<ClusterResource> listed, String where) {
        if (choice instanceof TemplateChoice.ByTags byTags) {
            return byTags(byTags, node, listed, where);
        }
        long vmid;
        if (choice instanceof TemplateChoice.ByMap byMap) {
            Long v = byMap.vmids().get(node);
            if (v == null) {
                throw new IllegalArgumentException(where + "templates names no template for this node (it names "
                        + String.join(", ", new TreeSet<>(byMap.vmids().keySet())) + ")");
            }
            vmid = v;
        } else {
            vmid = ((TemplateChoice.ByVmid) choice).vmid();
        }
        Optional<ClusterResource> r =
                listed.stream().filter(x -> x.isQemu() && x.vmid() == vmid).findFirst();
        if (r.isEmpty()) {
            throw new IllegalArgumentException(
                    where + "template VMID " + vmid + " is not in the cluster (or not visible to the API token)");
        }
        if (!isTemplate(r.get())) {
            throw new IllegalArgumentException(where + "VMID " + vmid + " is a VM, not a template (convert it with"
                    + " `qm template " + vmid + "`)");
        }
        return r.get();
    }

    private ClusterResource byTags(
            TemplateChoice.ByTags choice, String node, List<ClusterResource> listed, String where) {
        List<ClusterResource> matches = new ArrayList<>();
        for (ClusterResource r : listed) {
            if (r.isQemu()
                    && r.node().equals(node)
                    && choice.tags().stream().allMatch(r.tags()::contains)
                    && isTemplate(r)) {
                matches.add(r);
            }
        }
        String tags = String.join(", ", choice.tags());
        if (matches.isEmpty()) {
            throw new IllegalArgumentException(
                    where + "no template on this node carries the tags " + tags + " (tag one with them)");
        }
        if (matches.size() > 1) {
            throw new IllegalArgumentException(where + "more than one template on this node carries the tags " + tags
                    + " ("
                    + String.join(
                            ", ",
                            matches.stream().map(m -> Long.toString(m.vmid())).toList())
                    + "); leave them on exactly one");
        }
        return matches.get(0);
    }

    /** The statistics may not have sampled a new VM yet: then its config says. */
    private boolean isTemplate(ClusterResource r) {
        if (r.template().isPresent()) {
            return r.template().get();
        }
        return config(r, "").template();
    }

    private Template read(ClusterResource r, String where) {
        return Template.of(r.vmid(), r.node(), config(r, where));
    }

    private VmConfig config(ClusterResource r, String where) {
        try {
            return api.config(r.node(), r.vmid());
        } catch (PveApiException e) {
            throw StartupCheck.failure(where, e);
        }
    }
}
