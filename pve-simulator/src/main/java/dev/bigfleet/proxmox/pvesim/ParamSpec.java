package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.function.Function;

/**
 * One parameter of an endpoint's schema. {@code check} returns an error text for a bad string
 * value, or null; {@code rootOnly} parameters are refused for tokens.
 */
record ParamSpec(
        String name,
        ParamType type,
        boolean required,
        long min,
        long max,
        int maxLength,
        List<String> allowed,
        Function<String, String> check,
        boolean rootOnly) {}
