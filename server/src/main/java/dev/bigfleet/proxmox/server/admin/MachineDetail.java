package dev.bigfleet.proxmox.server.admin;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/**
 * {@code GET /api/v1/machines/{id}}: the machine's fields as in the table, why it failed (null unless
 * FAILED), and its recent operations, newest first.
 */
public record MachineDetail(@JsonUnwrapped MachineRow machine, FailureRow failure, List<OperationRow> operations) {}
