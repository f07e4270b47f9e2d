package dev.bigfleet.proxmox.server.cli;

import dev.bigfleet.proxmox.engine.FenceFloor;
import dev.bigfleet.proxmox.engine.OrphanPolicy;
import dev.bigfleet.proxmox.engine.RecoveryPolicy;
import dev.bigfleet.proxmox.engine.TransitionTimeouts;
import dev.bigfleet.proxmox.server.config.BackendConfig;
import dev.bigfleet.proxmox.server.config.GrpcConfig;
import dev.bigfleet.proxmox.server.config.HttpConfig;
import dev.bigfleet.proxmox.server.config.InventoryConfig;
import dev.bigfleet.proxmox.server.config.ObservabilitySettings;
import dev.bigfleet.proxmox.server.config.RuntimeConfig;
import dev.bigfleet.proxmox.server.config.StateConfig;

/**
 * Every validated setting of one provider process, one small config per concern. Only the entry
 * point holds all of them: it hands each to the Guice module of its concern.
 */
public record ProviderConfigs(
        ObservabilitySettings observability,
        BackendConfig backend,
        InventoryConfig inventory,
        TransitionTimeouts timeouts,
        OrphanPolicy orphans,
        RecoveryPolicy recovery,
        FenceFloor fenceFloor,
        RuntimeConfig runtime,
        GrpcConfig grpc,
        HttpConfig http,
        StateConfig state) {}
