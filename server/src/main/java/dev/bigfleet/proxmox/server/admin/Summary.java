package dev.bigfleet.proxmox.server.admin;

import java.util.List;
import java.util.Map;

/**
 * The page header and summary: who this provider is, how many machines it holds and in which
 * states per zone, and what the machines holding a VM cost per hour; with replicas, whether this one
 * leads ({@code role} leader or standby), the lease epoch, and the leader's name when known.
 */
public record Summary(
        String provider,
        String backend,
        long revision,
        String cursor,
        int machines,
        int holdingVm,
        double hourlyCostUsd,
        Map<String, Integer> states,
        List<ZoneStates> zones,
        List<String> instanceTypes,
        List<String> stateOrder,
        String role,
        long epoch,
        String leader) {}
