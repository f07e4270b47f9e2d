package dev.bigfleet.proxmox.server.admin;

import java.util.Map;

/**
 * One machine as the admin API serves it. Shard metadata and anything a Configure carried besides
 * the cluster id are left out; the bootstrap blob is never part of a machine at all.
 */
public record MachineRow(
        String id,
        String state,
        String zone,
        String instanceType,
        String capacityType,
        String host,
        String node,
        String cluster,
        double pricePerHour,
        Long density,
        Map<String, String> allocatable,
        Map<String, String> resources,
        Map<String, String> labels,
        String lastError,
        String stateSince,
        Long timeInStateSeconds) {}
