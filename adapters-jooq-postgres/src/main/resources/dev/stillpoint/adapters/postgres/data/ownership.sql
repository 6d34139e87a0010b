-- The data database's side of ownership (issue 25, O1), created by storage.Deployment on the data
-- database of either layout (the catalog database itself on the shared layout) when an opening sets
-- the layout up; not a catalog migration, so a data database never looks like a catalog.
--
-- sp_data_owner: one row, the identity of this data database (data_id) and of the catalog that owns
-- it (catalog_id). sp_data_relations: every data relation that catalog created here, registered in
-- the same transaction as its CREATE TABLE and removed in the same transaction as its DROP. The
-- orphan sweep [L2] drops only relations registered here to its own catalog whose table has no
-- catalog row: a relation of any other origin is never touched, whatever its name.
CREATE TABLE IF NOT EXISTS sp_data_owner (
  singleton      boolean NOT NULL DEFAULT TRUE,
  data_id        varchar NOT NULL,
  catalog_id     varchar NOT NULL,
  catalog_address varchar NOT NULL,
  created_at     bigint  NOT NULL,
  CONSTRAINT sp_data_owner_pk PRIMARY KEY (singleton),
  CONSTRAINT sp_data_owner_singleton_ck CHECK (singleton)
);

CREATE TABLE IF NOT EXISTS sp_data_relations (
  relation_name  varchar NOT NULL,
  catalog_id     varchar NOT NULL,
  registered_at  bigint  NOT NULL,
  CONSTRAINT sp_data_relations_pk PRIMARY KEY (relation_name)
);

-- sp_data_restores: each table whose restore completed, written in the data transaction that completes it and
-- removed in the transaction that drops the table's relations. A catalog that still holds that restore in
-- progress (a copy of the catalog made during the restore, or a restore of an earlier state of it, given this
-- data database) is behind it: its removal of the "dead" restore is refused instead of dropping the finished
-- table [E5, O1].
CREATE TABLE IF NOT EXISTS sp_data_restores (
  table_id      varchar NOT NULL,
  completed_at  bigint  NOT NULL,
  CONSTRAINT sp_data_restores_pk PRIMARY KEY (table_id)
);
