-- Shape of every per-table data relation. NOT executed as is: the adapter creates each relation with
-- jOOQ from the fields generated out of these two tables (see storage.DataRelation), under a name
-- derived from the table's id only:
--   base relation            d_<table_id>                      shape sp_data_template
--   GSI / LSI relation       d_<table_id>__gsi__<ordinal>       shape sp_index_data_template
--                            d_<table_id>__lsi__<ordinal>
-- This script exists so that jOOQ generates typed fields for the shapes, and so that a test can check
-- that a relation created by the adapter has exactly these columns.
--
--   pk       order-preserving encoding of the partition key value (storage.KeyCodec)
--   sk       order-preserving encoding of the sort key value; the empty blob for hash-only keys
--   item     the whole item as DynamoDB JSON text
--   base_pk  (index relations) the base item's pk, so an index entry finds its item and two base
--   base_sk  items with the same index key stay distinct
--
-- SQLite compares BLOBs with memcmp(), i.e. as unsigned bytes, which is DynamoDB's order for S (UTF-8)
-- and B, and, through KeyCodec, for N. Relations are rowid tables on purpose (no WITHOUT ROWID): the
-- snapshot falls back to rowid order for tables that cannot be paged by key (Q3). Key columns are
-- NOT NULL explicitly because SQLite lets NULLs into a rowid table's PRIMARY KEY otherwise.

CREATE TABLE sp_data_template (
  pk    BLOB NOT NULL,
  sk    BLOB NOT NULL,
  item  TEXT NOT NULL
  -- [jooq ignore start]
  ,
  PRIMARY KEY (pk, sk)
  -- [jooq ignore stop]
);

CREATE TABLE sp_index_data_template (
  pk       BLOB NOT NULL,
  sk       BLOB NOT NULL,
  base_pk  BLOB NOT NULL,
  base_sk  BLOB NOT NULL,
  item     TEXT NOT NULL
  -- [jooq ignore start]
  ,
  PRIMARY KEY (pk, sk, base_pk, base_sk)
  -- [jooq ignore stop]
);
