-- The provider's shared state on PostgreSQL, schema version 1 (PostgresSchema creates it in one transaction and checks its version on every start). Statements are separated by a line holding only ";".
-- What marks the database as ours, its schema version, the key that signs List cursors, and the counters: every commit raises change_seq by one, the position standbys follow.
CREATE TABLE provider_meta (id INTEGER PRIMARY KEY CHECK (id = 1), application TEXT NOT NULL,
    schema_version INTEGER NOT NULL, cursor_key BYTEA NOT NULL, revision BIGINT NOT NULL,
    last_operation_number BIGINT NOT NULL, change_seq BIGINT NOT NULL, changed_at TIMESTAMPTZ NOT NULL)
;
-- One row per machine. A retired machine stays as a row with deleted = true, so standbys learn of the retirement; change_seq is the commit that last changed the row or its fence marks.
CREATE TABLE machines (id TEXT PRIMARY KEY, change_seq BIGINT NOT NULL, deleted BOOLEAN NOT NULL,
    revision BIGINT NOT NULL, state TEXT NOT NULL, host_provider TEXT NOT NULL, host_ref TEXT NOT NULL,
    instance_type TEXT NOT NULL, zone TEXT NOT NULL, capacity_type TEXT NOT NULL,
    price_per_hour DOUBLE PRECISION NOT NULL, interruption_probability DOUBLE PRECISION NOT NULL,
    resources TEXT NOT NULL, labels TEXT NOT NULL, allocatable TEXT NOT NULL, last_error TEXT NOT NULL,
    cluster TEXT NOT NULL, shard_metadata TEXT NOT NULL, last_op_kind TEXT, last_op_id TEXT,
    last_op_cluster TEXT, last_op_deadline BIGINT, last_op_grace BIGINT, failed_kind TEXT, failed_at BIGINT,
    failed_bound BOOLEAN, failed_error TEXT, cleanup_attempts INTEGER, cleanup_not_before BIGINT)
;
CREATE INDEX machines_by_change ON machines (change_seq)
;
CREATE TABLE fence_marks (machine_id TEXT NOT NULL, shard_id TEXT NOT NULL, epoch BIGINT NOT NULL,
    sequence BIGINT NOT NULL, PRIMARY KEY (machine_id, shard_id))
;
-- The leader's lease: the epoch only ever grows, and every write of the leader is made while holding this row in share mode with its own epoch in it.
CREATE TABLE leader_lease (id INTEGER PRIMARY KEY CHECK (id = 1), epoch BIGINT NOT NULL, holder_name TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL)
;
INSERT INTO leader_lease (id, epoch, holder_name, expires_at) VALUES (1, 0, '', '-infinity')
;
-- Each machine's recent operations, the newest few (OperationRecord.KEPT_PER_MACHINE), written in the transaction of the change that starts or ends each; first_revision orders them. A retired machine has none.
CREATE TABLE operations (machine_id TEXT NOT NULL, operation_id TEXT NOT NULL, first_revision BIGINT NOT NULL,
    kind TEXT NOT NULL, started_at BIGINT, ended_at BIGINT, outcome TEXT NOT NULL, error TEXT NOT NULL,
    PRIMARY KEY (machine_id, operation_id))
