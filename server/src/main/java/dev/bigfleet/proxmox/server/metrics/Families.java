package dev.bigfleet.proxmox.server.metrics;

import static dev.bigfleet.proxmox.server.metrics.MetricFamily.counter;
import static dev.bigfleet.proxmox.server.metrics.MetricFamily.gauge;
import static dev.bigfleet.proxmox.server.metrics.MetricFamily.histogram;

/**
 * The provider's own metrics. The first six keep the reference provider's names and meanings so
 * existing dashboards and alerts carry over; the rest fill its gaps.
 */
public final class Families {
    private Families() {}

    public static final String PREFIX = "bigfleet_proxmox_";

    public static final MetricFamily API_CALLS = counter(
            PREFIX + "api_calls_total",
            "Calls the backend made to the Proxmox API, by operation and outcome (success, waiting or error).",
            "op",
            "outcome");
    public static final MetricFamily API_DURATION = histogram(
            PREFIX + "api_duration_seconds",
            "Duration of calls to the Proxmox API, by operation.",
            Buckets.LONG_RUNNING,
            "op");
    public static final MetricFamily GRPC_REQUESTS = counter(
            PREFIX + "grpc_requests_total",
            "Unary gRPC requests served, health Check included, by method and status code.",
            "method",
            "code");
    public static final MetricFamily GRPC_DURATION = histogram(
            PREFIX + "grpc_request_duration_seconds",
            "Time to answer a unary gRPC request; lifecycle RPCs answer at accept, before the work runs.",
            Buckets.REQUEST,
            "method");
    public static final MetricFamily PANICS =
            counter(PREFIX + "panics_total", "Unexpected exceptions in gRPC handlers, answered with INTERNAL.");
    public static final MetricFamily RECONCILES =
            counter(PREFIX + "reconcile_total", "Background reconcile runs, by outcome (success or error).", "outcome");

    public static final MetricFamily MACHINES = gauge(
            PREFIX + "machines",
            "Machines in the inventory, by state, zone and instance type.",
            "state",
            "zone",
            "instance_type");
    public static final MetricFamily HOURLY_COST =
            gauge(PREFIX + "hourly_cost_usd", "Sum of price_per_hour over the machines that hold a VM.");
    public static final MetricFamily TRANSITIONS = counter(
            PREFIX + "transitions_total",
            "Finished transitions, by kind and outcome (success, error or timeout).",
            "kind",
            "outcome");
    public static final MetricFamily TRANSITION_DURATION = histogram(
            PREFIX + "transition_duration_seconds",
            "Time from accepting a transition to its outcome, by kind and outcome.",
            Buckets.LONG_RUNNING,
            "kind",
            "outcome");
    public static final MetricFamily STATE_DURATION = histogram(
            PREFIX + "state_duration_seconds",
            "Time a machine spent in a state, observed when it leaves the state.",
            Buckets.LONG_RUNNING,
            "state");
    public static final MetricFamily FENCED = counter(
            PREFIX + "fenced_total", "Mutations refused by the fence (stale shard token), by transition kind.", "kind");
    public static final MetricFamily IDENTITY_REFUSALS = counter(
            PREFIX + "identity_refusals_total",
            "With --tls-ca: mutations refused because the client certificate may not use their fence token, by"
                    + " reason (shard_mismatch, unnamed_client, read_only_client, ambiguous_identity or"
                    + " unrecognized_identity).",
            "reason");
    public static final MetricFamily STORE_COMMIT_DURATION = histogram(
            PREFIX + "store_commit_duration_seconds",
            "Time from queueing a change to the state store until it is durable (group commit included).",
            Buckets.STORE);
    public static final MetricFamily STORE_COMMIT_ERRORS =
            counter(PREFIX + "store_commit_errors_total", "Changes the state store failed to make durable.");
    public static final MetricFamily FAILED_RECOVERED = counter(
            PREFIX + "failed_recovered_total",
            "FAILED machines cleaned up and their slot offered again by a new machine, by the transition they had failed in.",
            "kind");
    public static final MetricFamily REBUILT_MACHINES = counter(
            PREFIX + "rebuilt_machines_total",
            "Machines rebuilt from their VMs at startup because the state and the cluster disagreed, by what they became"
                    + " (idle, configured, or failed: a FAILED machine whose cleanup now drains first).",
            "as");
    public static final MetricFamily FAILED_NEEDS_ATTENTION = gauge(
            PREFIX + "failed_needs_attention",
            "FAILED machines whose VM may be a live node and whose drain before destroying it keeps failing.");
    public static final MetricFamily TEMPLATE_DRIFT = gauge(
            PREFIX + "template_drift_vms",
            "VMs cloned from an older config of their template (the template changed since); each template is read"
                    + " again at most every 5 minutes.");
    public static final MetricFamily API_UP =
            gauge(PREFIX + "api_up", "Whether the backend's last calls reached the Proxmox API (1) or not (0).");
    public static final MetricFamily MACHINES_MOVED = gauge(
            PREFIX + "machines_moved",
            "Machines whose VM is on another node than their offering's zone (migrated by hand or by HA); they still"
                    + " count against their offering.");
    public static final MetricFamily NODE_SCHEDULABLE = gauge(
            PREFIX + "node_schedulable",
            "Whether a node takes new VMs (1): online, in a quorate cluster, not in maintenance; 0 when it does not or"
                    + " cannot be read.",
            "node");
    public static final MetricFamily API_BREAKER_OPEN = gauge(
            PREFIX + "api_breaker_open",
            "Whether the backend fails calls to the Proxmox API fast, without sending them (1), or not (0).");
    public static final MetricFamily LAST_RECONCILE_SUCCESS = gauge(
            PREFIX + "last_reconcile_success_timestamp_seconds",
            "When a reconcile pass last succeeded, in seconds since the epoch (0: none yet).");
    public static final MetricFamily LEADER =
            gauge(PREFIX + "leader", "Whether this replica leads and serves (1) or stands by (0); 1 without replicas.");
    public static final MetricFamily LEADER_EPOCH = gauge(
            PREFIX + "leader_epoch",
            "The lease epoch of the leader as this replica knows it; it grows with every failover (0 without"
                    + " replicas).");
    public static final MetricFamily STANDBY_LAG = gauge(
            PREFIX + "standby_lag_seconds",
            "On a standby: how late, at most, the leader's newest changes reached this replica's view when it"
                    + " last looked (0 when nothing was new, and on the leader).");
}
