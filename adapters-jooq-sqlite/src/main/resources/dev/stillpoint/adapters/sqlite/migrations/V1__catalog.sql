-- Stillpoint SQLite catalog, version 1.
--
-- Run by dev.stillpoint.adapters.sqlite.schema.Migrations on the real SQLite database, statement by
-- statement, in one transaction, and replayed by jOOQ's DDLDatabase (in-memory H2) at build time to
-- generate dev.stillpoint.adapters.sqlite.generated.
--
-- H2 cannot index TEXT (CLOB) or BLOB columns, so every key, unique constraint, foreign key and index
-- that touches one is wrapped in a "jooq ignore" region: SQLite executes it, jOOQ's parser skips it.
-- The generated classes therefore carry no key metadata for those tables; the adapter never relies on
-- it (no UpdatableRecord.store()).
--
-- Types are chosen for both readers: SQLite gives INTEGER affinity to BIGINT and NUMERIC affinity to
-- BOOLEAN (stored as integer 0/1); jOOQ maps BIGINT to Long (INTEGER would be a 32-bit Integer, too
-- small for epoch milliseconds) and BOOLEAN to Boolean. Boolean CHECKs compare with FALSE/TRUE, not
-- 0/1: H2 refuses to compare BOOLEAN with INTEGER, SQLite (3.23+) reads FALSE/TRUE as 0/1.
-- Times are epoch milliseconds. JSON columns hold DynamoDB's own wire shapes as TEXT.

CREATE TABLE sp_schema_version (
  version     INTEGER NOT NULL PRIMARY KEY,
  applied_at  TEXT    NOT NULL
);

-- One row per DynamoDB table of an account. The key schema is denormalised into columns; a *_type
-- is NULL when the attribute has no definition of its own (the table is then unorderable, D1).
-- relation_name is the base data relation, derived from table_id only (d_<table_id>), so no
-- user-supplied name ever becomes an SQL identifier.
CREATE TABLE sp_tables (
  account_id                  TEXT    NOT NULL,
  table_name                  TEXT    NOT NULL,
  table_id                    TEXT    NOT NULL,
  table_arn                   TEXT    NOT NULL,
  relation_name               TEXT    NOT NULL,
  status                      TEXT    NOT NULL CHECK (status IN ('CREATING', 'ACTIVE', 'DELETING')),
  created_at                  BIGINT  NOT NULL,
  status_due_at               BIGINT,
  partition_key_name          TEXT    NOT NULL,
  partition_key_type          TEXT,
  sort_key_name               TEXT,
  sort_key_type               TEXT,
  attribute_definitions_json  TEXT    NOT NULL,
  stream_spec_json            TEXT,
  ttl_json                    TEXT,
  item_count                  BIGINT  NOT NULL DEFAULT 0,
  size_bytes                  BIGINT  NOT NULL DEFAULT 0
  -- [jooq ignore start]
  ,
  CONSTRAINT sp_tables_pk PRIMARY KEY (account_id, table_name),
  CONSTRAINT sp_tables_table_id_uk UNIQUE (table_id),
  CONSTRAINT sp_tables_relation_uk UNIQUE (relation_name)
  -- [jooq ignore stop]
);

-- The control plane's work list: rows whose next transition is due (CREATING -> ACTIVE, deferred drops).
CREATE INDEX sp_tables_due_ix ON sp_tables (status_due_at);

-- GSIs and LSIs. ordinal numbers a table's indexes for good (never reused while the table lives);
-- relation_name is d_<table_id>__gsi__<ordinal> or d_<table_id>__lsi__<ordinal>.
CREATE TABLE sp_indexes (
  table_id            TEXT    NOT NULL,
  index_name          TEXT    NOT NULL,
  kind                TEXT    NOT NULL CHECK (kind IN ('GSI', 'LSI')),
  ordinal             INTEGER NOT NULL CHECK (ordinal >= 0),
  relation_name       TEXT    NOT NULL,
  partition_key_name  TEXT    NOT NULL,
  partition_key_type  TEXT,
  sort_key_name       TEXT,
  sort_key_type       TEXT,
  projection_json     TEXT    NOT NULL,
  status              TEXT    NOT NULL CHECK (status IN ('CREATING', 'ACTIVE', 'DELETING')),
  backfilling         BOOLEAN NOT NULL DEFAULT FALSE CHECK (backfilling IN (FALSE, TRUE))
  -- [jooq ignore start]
  ,
  CONSTRAINT sp_indexes_pk PRIMARY KEY (table_id, index_name),
  CONSTRAINT sp_indexes_ordinal_uk UNIQUE (table_id, ordinal),
  CONSTRAINT sp_indexes_relation_uk UNIQUE (relation_name),
  CONSTRAINT sp_indexes_table_fk FOREIGN KEY (table_id) REFERENCES sp_tables (table_id) ON DELETE CASCADE
  -- [jooq ignore stop]
);

-- Vector indexes. Their data relation (d_<table_id>__vec__<ordinal>) is laid out by the adapter.
CREATE TABLE sp_vector_indexes (
  table_id        TEXT    NOT NULL,
  index_name      TEXT    NOT NULL,
  ordinal         INTEGER NOT NULL CHECK (ordinal >= 0),
  relation_name   TEXT    NOT NULL,
  attribute_name  TEXT    NOT NULL,
  dimensions      INTEGER NOT NULL CHECK (dimensions > 0),
  metric          TEXT    NOT NULL,
  status          TEXT    NOT NULL CHECK (status IN ('CREATING', 'ACTIVE', 'DELETING'))
  -- [jooq ignore start]
  ,
  CONSTRAINT sp_vector_indexes_pk PRIMARY KEY (table_id, index_name),
  CONSTRAINT sp_vector_indexes_ordinal_uk UNIQUE (table_id, ordinal),
  CONSTRAINT sp_vector_indexes_relation_uk UNIQUE (relation_name),
  CONSTRAINT sp_vector_indexes_table_fk FOREIGN KEY (table_id) REFERENCES sp_tables (table_id) ON DELETE CASCADE
  -- [jooq ignore stop]
);

-- The restore summary of a table created by a restore (part of its description, S2/K3).
CREATE TABLE sp_restore_records (
  table_id             TEXT    NOT NULL,
  source_backup_arn    TEXT,
  source_table_arn     TEXT,
  restore_date_time    BIGINT  NOT NULL,
  restore_in_progress  BOOLEAN NOT NULL DEFAULT FALSE CHECK (restore_in_progress IN (FALSE, TRUE))
  -- [jooq ignore start]
  ,
  CONSTRAINT sp_restore_records_pk PRIMARY KEY (table_id),
  CONSTRAINT sp_restore_records_table_fk FOREIGN KEY (table_id) REFERENCES sp_tables (table_id) ON DELETE CASCADE
  -- [jooq ignore stop]
);

-- Engine settings, one text value per name.
CREATE TABLE sp_settings (
  name   TEXT NOT NULL,
  value  TEXT NOT NULL
  -- [jooq ignore start]
  ,
  CONSTRAINT sp_settings_pk PRIMARY KEY (name)
  -- [jooq ignore stop]
);

INSERT INTO sp_settings (name, value) VALUES ('control_plane_delay_ms', '250');
