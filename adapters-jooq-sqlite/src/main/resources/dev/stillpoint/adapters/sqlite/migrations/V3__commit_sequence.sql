-- The commit sequence [L5]: one row whose seq every write transaction of the engine advances (item
-- puts and deletes, catalog changes, drops), in the same transaction as the write. A snapshot reads it
-- inside its read transaction, so its marker <table_id>@<seq> names the commits it saw: two snapshots
-- share a marker only if no engine write committed between them.
CREATE TABLE sp_commit_sequence (
  id   INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
  seq  BIGINT  NOT NULL CHECK (seq >= 0)
);

INSERT INTO sp_commit_sequence (id, seq) VALUES (1, 0);
