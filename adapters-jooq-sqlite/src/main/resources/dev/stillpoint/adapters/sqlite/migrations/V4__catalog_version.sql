-- The catalog version (issue 13): an item write keeps the table's definition it last read and, inside
-- its own write transaction, reads only (table_id, catalog_version) of the table's row; the definition
-- is read again only when either differs. Triggers advance catalog_version in the same transaction as
-- every change to what a description is built from (the table's row except its running counts, its
-- index rows, vector index rows and restore record), whoever makes it: this engine, another process on
-- the same file, or a hand edit. A table deleted and created again has a new table_id.
ALTER TABLE sp_tables ADD COLUMN catalog_version BIGINT NOT NULL DEFAULT 0;

-- [jooq ignore start]
CREATE TRIGGER sp_tables_changed AFTER UPDATE OF account_id, table_name, table_id, table_arn, relation_name,
    status, created_at, status_due_at, partition_key_name, partition_key_type, sort_key_name, sort_key_type,
    attribute_definitions_json, stream_spec_json, ttl_json, drop_retry ON sp_tables
BEGIN
  UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id = NEW.table_id;
END;

CREATE TRIGGER sp_indexes_inserted AFTER INSERT ON sp_indexes
BEGIN
  UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id = NEW.table_id;
END;

CREATE TRIGGER sp_indexes_changed AFTER UPDATE ON sp_indexes
BEGIN
  UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id IN (OLD.table_id, NEW.table_id);
END;

CREATE TRIGGER sp_indexes_deleted AFTER DELETE ON sp_indexes
BEGIN
  UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id = OLD.table_id;
END;

CREATE TRIGGER sp_vector_indexes_inserted AFTER INSERT ON sp_vector_indexes
BEGIN
  UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id = NEW.table_id;
END;

CREATE TRIGGER sp_vector_indexes_changed AFTER UPDATE ON sp_vector_indexes
BEGIN
  UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id IN (OLD.table_id, NEW.table_id);
END;

CREATE TRIGGER sp_vector_indexes_deleted AFTER DELETE ON sp_vector_indexes
BEGIN
  UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id = OLD.table_id;
END;

CREATE TRIGGER sp_restore_records_inserted AFTER INSERT ON sp_restore_records
BEGIN
  UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id = NEW.table_id;
END;

CREATE TRIGGER sp_restore_records_changed AFTER UPDATE ON sp_restore_records
BEGIN
  UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id IN (OLD.table_id, NEW.table_id);
END;

CREATE TRIGGER sp_restore_records_deleted AFTER DELETE ON sp_restore_records
BEGIN
  UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id = OLD.table_id;
END;
-- [jooq ignore stop]
