-- Shape of a table's change log relation [I1], d_<table_id>__chg__0, created with the table when it keeps
-- a log and dropped with it. NOT executed as is: storage.ChangeRelation creates each one with jOOQ from
-- the fields generated out of this table. One row per committed put, overwrite or delete of the table,
-- written in the same transaction as the write, plus one START row written when the log began:
--
--   seq        the commit sequence [L5] the writing transaction commits as (sp_commit_sequence.seq + 1,
--              read inside the IMMEDIATE transaction, which advances it once before COMMIT); a snapshot
--              with marker <table_id>@<s> sees exactly the rows with seq <= s
--   kind       PUT (a put or an overwrite), DELETE (a tombstone), MARK (a trim pass's checkpoint [I4]:
--              its key_json holds the pass's instant in epoch milliseconds), START (the log's first instant: a
--              marker older than it is refused [I4])
--   pk, sk     the item's encoded key (storage.KeyCodec), so the last change of a key is found by key
--   key_json   the key attributes as DynamoDB JSON
--   new_image  PUT: the item as written (DynamoDB JSON); DELETE: NULL
--   old_image  the item the write replaced or deleted, when the table's log is NEW_AND_OLD_IMAGES
--
-- A rowid table without a primary key: rows of one transaction are ordered by rowid, and (seq, rowid)
-- orders all of them. The index on seq serves the window query "seq > A".

CREATE TABLE sp_change_template (
  seq        BIGINT NOT NULL,
  kind       VARCHAR(8) NOT NULL,
  pk         BLOB NOT NULL,
  sk         BLOB NOT NULL,
  key_json   TEXT NOT NULL,
  new_image  TEXT,
  old_image  TEXT
);
