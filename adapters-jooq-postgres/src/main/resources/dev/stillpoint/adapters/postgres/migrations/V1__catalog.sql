-- Stillpoint PostgreSQL catalog, version 1.
--
-- Run by dev.stillpoint.adapters.postgres.schema.Migrations on the catalog database (the one database
-- of the shared layout, the catalog database of the separate layout), statement by statement, in one
-- transaction under an advisory lock, and replayed by jOOQ's DDLDatabase (in-memory H2) at build time
-- to generate dev.stillpoint.adapters.postgres.generated.
--
-- Identifiers and names are varchar (unbounded in PostgreSQL) so H2 can index them at build time;
-- JSON columns are text and hold DynamoDB's own wire shapes, written with the one item codec.
-- Times are epoch milliseconds (bigint), as in the SQLite catalog.
--
-- Data relations are NOT created here: the adapter creates one per table and index with jOOQ
-- (storage.DataRelation), named from table_id only, in the data database.

CREATE TABLE sp_schema_version (
  version     integer NOT NULL,
  applied_at  bigint  NOT NULL,
  CONSTRAINT sp_schema_version_pk PRIMARY KEY (version)
);

-- One row per DynamoDB table of an account. relation_name is the base data relation d_<table_id>.
-- partition_key_type / sort_key_type fix the SQL types of the data relations' key columns
-- (S: text COLLATE "C", N: numeric, B: bytea); attribute_definitions_json is what DescribeTable shows.
-- status_due_at: when a CREATING row activates or a DELETING row's drop is due. drop_retry: why a
-- DELETING row waits (SCHEDULED, DEFERRED: a holder or a lock wait, FAILED: another failure).
CREATE TABLE sp_tables (
  account_id                  varchar NOT NULL,
  table_name                  varchar NOT NULL,
  table_id                    varchar NOT NULL,
  table_arn                   varchar NOT NULL,
  relation_name               varchar NOT NULL,
  status                      varchar NOT NULL,
  created_at                  bigint  NOT NULL,
  status_due_at               bigint,
  drop_retry                  varchar,
  partition_key_name          varchar NOT NULL,
  partition_key_type          varchar NOT NULL,
  sort_key_name               varchar,
  sort_key_type               varchar,
  attribute_definitions_json  text    NOT NULL,
  stream_spec_json            text,
  ttl_json                    text,
  item_count                  bigint  NOT NULL DEFAULT 0,
  size_bytes                  bigint  NOT NULL DEFAULT 0,
  CONSTRAINT sp_tables_pk PRIMARY KEY (account_id, table_name),
  CONSTRAINT sp_tables_table_id_uk UNIQUE (table_id),
  CONSTRAINT sp_tables_relation_uk UNIQUE (relation_name),
  CONSTRAINT sp_tables_status_ck CHECK (status IN ('CREATING', 'ACTIVE', 'DELETING')),
  CONSTRAINT sp_tables_drop_retry_ck CHECK (drop_retry IN ('SCHEDULED', 'DEFERRED', 'FAILED')),
  CONSTRAINT sp_tables_pk_type_ck CHECK (partition_key_type IN ('S', 'N', 'B')),
  CONSTRAINT sp_tables_sk_type_ck CHECK (sort_key_type IN ('S', 'N', 'B'))
);

-- The control plane's work list: rows whose next transition is due.
CREATE INDEX sp_tables_status_ix ON sp_tables (status, status_due_at);

-- GSIs and LSIs. ordinal numbers a table's indexes for good; relation_name is
-- d_<table_id>__gsi__<ordinal> or d_<table_id>__lsi__<ordinal>.
CREATE TABLE sp_indexes (
  table_id            varchar NOT NULL,
  index_name          varchar NOT NULL,
  kind                varchar NOT NULL,
  ordinal             integer NOT NULL,
  relation_name       varchar NOT NULL,
  partition_key_name  varchar NOT NULL,
  partition_key_type  varchar NOT NULL,
  sort_key_name       varchar,
  sort_key_type       varchar,
  projection_json     text    NOT NULL,
  status              varchar NOT NULL,
  backfilling         boolean NOT NULL DEFAULT FALSE,
  CONSTRAINT sp_indexes_pk PRIMARY KEY (table_id, index_name),
  CONSTRAINT sp_indexes_ordinal_uk UNIQUE (table_id, ordinal),
  CONSTRAINT sp_indexes_relation_uk UNIQUE (relation_name),
  CONSTRAINT sp_indexes_table_fk FOREIGN KEY (table_id) REFERENCES sp_tables (table_id) ON DELETE CASCADE,
  CONSTRAINT sp_indexes_kind_ck CHECK (kind IN ('GSI', 'LSI')),
  CONSTRAINT sp_indexes_ordinal_ck CHECK (ordinal >= 0),
  CONSTRAINT sp_indexes_status_ck CHECK (status IN ('CREATING', 'ACTIVE', 'DELETING'))
);

-- Vector indexes; their data relation is d_<table_id>__vec__<ordinal>.
CREATE TABLE sp_vector_indexes (
  table_id        varchar NOT NULL,
  index_name      varchar NOT NULL,
  ordinal         integer NOT NULL,
  relation_name   varchar NOT NULL,
  attribute_name  varchar NOT NULL,
  dimensions      integer NOT NULL,
  metric          varchar NOT NULL,
  status          varchar NOT NULL,
  CONSTRAINT sp_vector_indexes_pk PRIMARY KEY (table_id, index_name),
  CONSTRAINT sp_vector_indexes_ordinal_uk UNIQUE (table_id, ordinal),
  CONSTRAINT sp_vector_indexes_relation_uk UNIQUE (relation_name),
  CONSTRAINT sp_vector_indexes_table_fk FOREIGN KEY (table_id) REFERENCES sp_tables (table_id) ON DELETE CASCADE,
  CONSTRAINT sp_vector_indexes_dimensions_ck CHECK (dimensions > 0),
  CONSTRAINT sp_vector_indexes_status_ck CHECK (status IN ('CREATING', 'ACTIVE', 'DELETING'))
);

-- The restore summary of a table created by a restore (part of its description, S2/K3).
CREATE TABLE sp_restore_records (
  table_id             varchar NOT NULL,
  source_backup_arn    varchar,
  source_table_arn     varchar,
  restore_date_time    bigint  NOT NULL,
  restore_in_progress  boolean NOT NULL DEFAULT FALSE,
  CONSTRAINT sp_restore_records_pk PRIMARY KEY (table_id),
  CONSTRAINT sp_restore_records_table_fk FOREIGN KEY (table_id) REFERENCES sp_tables (table_id) ON DELETE CASCADE
);

-- Work queued against a table (index builds, stream records, backup steps): DeleteTable deletes a
-- table's rows first, waiting for in-flight claims (a worker's FOR UPDATE on its row) [P7]. No
-- foreign key: the rows go explicitly, before the drops, never by cascade at the catalog removal.
CREATE TABLE sp_pending_work (
  work_id      bigint  GENERATED BY DEFAULT AS IDENTITY,
  table_id     varchar NOT NULL,
  kind         varchar NOT NULL,
  payload      text,
  enqueued_at  bigint  NOT NULL,
  claimed_by   varchar,
  claimed_at   bigint,
  CONSTRAINT sp_pending_work_pk PRIMARY KEY (work_id)
);

CREATE INDEX sp_pending_work_table_ix ON sp_pending_work (table_id);

-- Engine settings, one text value per name.
CREATE TABLE sp_settings (
  name   varchar NOT NULL,
  value  varchar NOT NULL,
  CONSTRAINT sp_settings_pk PRIMARY KEY (name)
);

INSERT INTO sp_settings (name, value) VALUES ('control_plane_delay_ms', '250');
