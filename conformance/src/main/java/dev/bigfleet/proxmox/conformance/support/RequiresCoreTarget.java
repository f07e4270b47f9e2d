package dev.bigfleet.proxmox.conformance.support;

import dev.bigfleet.proxmox.conformance.target.Profile;
import dev.bigfleet.proxmox.conformance.target.Targets;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.Optional;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.SkipExecutionHook;

/**
 * jqwik counterpart of the Jupiter assumption in {@link CoreConformance}: each property is skipped
 * (not failed, and not "exhausted" the way a per-try {@code Assume} would make it) when there is
 * no core endpoint. Applied to property methods only, so each one is reported as skipped.
 */
public final class RequiresCoreTarget implements SkipExecutionHook {
    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
        return Targets.of(Profile.CORE).isPresent()
                ? SkipResult.doNotSkip()
                : SkipResult.skip("no core endpoint (set " + Profile.CORE.property() + ")");
    }

    @Override
    public boolean appliesTo(Optional<AnnotatedElement> element) {
        return element.map(e -> e instanceof Method).orElse(false);
    }

    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.DIRECT_DESCENDANTS;
    }
}
