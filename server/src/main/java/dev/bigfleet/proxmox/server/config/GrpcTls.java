package dev.bigfleet.proxmox.server.config;

import java.nio.file.Path;
import java.util.Optional;

/** TLS material for the gRPC listener; with a client CA, client certificates are required (mTLS). */
public record GrpcTls(Path certificate, Path privateKey, Optional<Path> clientCa) {}
