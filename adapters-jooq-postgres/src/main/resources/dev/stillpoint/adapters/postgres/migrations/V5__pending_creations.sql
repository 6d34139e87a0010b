-- The tables this catalog database began to create and has not finished (found from outside: a copy of a
-- separate-layout catalog, made as a staging database and given the same data database, swept away a table
-- its original created after the copy). CreateTable and a restore commit the new table's id here before any
-- data relation exists, and delete it in the catalog transaction that commits the table's row. The orphan
-- sweep [L2, O1] drops a registered relation only when its table id is listed here and has no row: what this
-- catalog itself began and never finished. A copy lists none of the tables its original began after the copy.
CREATE TABLE sp_pending_creations (
  table_id    varchar NOT NULL,
  started_at  bigint  NOT NULL,
  CONSTRAINT sp_pending_creations_pk PRIMARY KEY (table_id)
);
