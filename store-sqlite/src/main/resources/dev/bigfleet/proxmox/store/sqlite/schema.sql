-- The provider's state database, schema version 3 (StateSchema upgrades a version 1 or 2 file in place). Statements are separated by a line holding only ";".
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
-- the background; updating rows in place would dirty one page per machine. A row whose change starts
-- or ends an operation carries it in its op_* columns, so the history costs no row of its own.
CREATE TABLE journal (seq INTEGER PRIMARY KEY, deleted INTEGER NOT NULL, id TEXT NOT NULL,
    revision INTEGER, state TEXT, host_provider TEXT, host_ref TEXT, instance_type TEXT, zone TEXT,
    capacity_type TEXT, price_per_hour REAL, interruption_probability REAL, resources TEXT,
    labels TEXT, allocatable TEXT, last_error TEXT, cluster TEXT, shard_metadata TEXT,
    last_op_kind TEXT, last_op_id TEXT, last_op_cluster TEXT, last_op_deadline INTEGER, last_op_grace INTEGER,
    failed_kind TEXT, failed_at INTEGER, failed_bound INTEGER, failed_error TEXT, cleanup_attempts INTEGER,
    cleanup_not_before INTEGER, op_id TEXT, op_kind TEXT, op_started_at INTEGER, op_ended_at INTEGER,
    op_outcome TEXT, op_error TEXT)
;
-- Each machine's recent operations, the newest few (OperationRecord.KEPT_PER_MACHINE), folded from the op_* columns
-- of the journal rows that started or ended them; first_revision orders them.
CREATE TABLE operations (machine_id TEXT NOT NULL, operation_id TEXT NOT NULL,
    first_revision INTEGER NOT NULL, kind TEXT NOT NULL, started_at INTEGER, ended_at INTEGER,
    outcome TEXT NOT NULL, error TEXT NOT NULL, PRIMARY KEY (machine_id, operation_id))
    WITHOUT ROWID
;
CREATE TABLE mark_journal (seq INTEGER PRIMARY KEY, machine_id TEXT NOT NULL,
    shard_id TEXT NOT NULL, epoch INTEGER NOT NULL, sequence INTEGER NOT NULL)
;
CREATE TABLE meta (key TEXT PRIMARY KEY, value NOT NULL)
;
INSERT INTO meta (key, value) VALUES ('revision', 0), ('last_operation_number', 0)
