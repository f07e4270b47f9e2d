-- The state database as schema version 2 wrote it (before the operation history), for the upgrade test.
-- One row per machine: clustered on the id, so an update touches one B-tree, not a table and an index.
CREATE TABLE machines (id TEXT PRIMARY KEY, revision INTEGER NOT NULL, state TEXT NOT NULL,
    host_provider TEXT NOT NULL, host_ref TEXT NOT NULL, instance_type TEXT NOT NULL,
    zone TEXT NOT NULL, capacity_type TEXT NOT NULL, price_per_hour REAL NOT NULL,
    interruption_probability REAL NOT NULL, resources TEXT NOT NULL, labels TEXT NOT NULL,
    allocatable TEXT NOT NULL, last_error TEXT NOT NULL, cluster TEXT NOT NULL,
    shard_metadata TEXT NOT NULL, last_op_kind TEXT, last_op_id TEXT, last_op_cluster TEXT,
    last_op_deadline INTEGER, last_op_grace INTEGER, failed_kind TEXT, failed_at INTEGER,
    failed_bound INTEGER, failed_error TEXT, cleanup_attempts INTEGER, cleanup_not_before INTEGER)
    WITHOUT ROWID
;
CREATE TABLE fence_marks (machine_id TEXT NOT NULL, shard_id TEXT NOT NULL,
    epoch INTEGER NOT NULL, sequence INTEGER NOT NULL, PRIMARY KEY (machine_id, shard_id))
    WITHOUT ROWID
;
-- Changes are appended here (sequential pages, a small commit) and folded into the tables above in
-- the background; updating rows in place would dirty one page per machine.
CREATE TABLE journal (seq INTEGER PRIMARY KEY, deleted INTEGER NOT NULL, id TEXT NOT NULL,
    revision INTEGER, state TEXT, host_provider TEXT, host_ref TEXT, instance_type TEXT, zone TEXT,
    capacity_type TEXT, price_per_hour REAL, interruption_probability REAL, resources TEXT,
    labels TEXT, allocatable TEXT, last_error TEXT, cluster TEXT, shard_metadata TEXT,
    last_op_kind TEXT, last_op_id TEXT, last_op_cluster TEXT, last_op_deadline INTEGER, last_op_grace INTEGER,
    failed_kind TEXT, failed_at INTEGER, failed_bound INTEGER, failed_error TEXT, cleanup_attempts INTEGER,
    cleanup_not_before INTEGER)
;
CREATE TABLE mark_journal (seq INTEGER PRIMARY KEY, machine_id TEXT NOT NULL,
    shard_id TEXT NOT NULL, epoch INTEGER NOT NULL, sequence INTEGER NOT NULL)
;
CREATE TABLE meta (key TEXT PRIMARY KEY, value NOT NULL)
;
INSERT INTO meta (key, value) VALUES ('revision', 0), ('last_operation_number', 0)
