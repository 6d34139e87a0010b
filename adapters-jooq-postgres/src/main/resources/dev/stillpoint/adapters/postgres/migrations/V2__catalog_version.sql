-- The catalog version (issue 13): an item write keeps the table's definition it last read and, inside
-- its own unit of work, reads only (table_id, catalog_version) of the table's row, FOR KEY SHARE as
-- before; the definition is read again only when either differs. Triggers advance catalog_version in
-- the same transaction as every change to what a description is built from (the table's row except
-- its running counts, its index rows, vector index rows and restore record), whoever makes it: this
-- engine, another server node, or a hand edit. A table deleted and created again has a new table_id.
ALTER TABLE sp_tables ADD COLUMN catalog_version bigint NOT NULL DEFAULT 0;

-- [jooq ignore start]
CREATE FUNCTION sp_tables_advance_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.catalog_version := OLD.catalog_version + 1;
  RETURN NEW;
END
$$;

CREATE TRIGGER sp_tables_changed BEFORE UPDATE OF account_id, table_name, table_id, table_arn, relation_name,
    status, created_at, status_due_at, partition_key_name, partition_key_type, sort_key_name, sort_key_type,
    attribute_definitions_json, stream_spec_json, ttl_json, drop_retry ON sp_tables
  FOR EACH ROW EXECUTE FUNCTION sp_tables_advance_version();

CREATE FUNCTION sp_table_part_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id = OLD.table_id;
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id IN (OLD.table_id, NEW.table_id);
  ELSE
    UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id = NEW.table_id;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER sp_indexes_changed AFTER INSERT OR UPDATE OR DELETE ON sp_indexes
  FOR EACH ROW EXECUTE FUNCTION sp_table_part_changed();
CREATE TRIGGER sp_vector_indexes_changed AFTER INSERT OR UPDATE OR DELETE ON sp_vector_indexes
  FOR EACH ROW EXECUTE FUNCTION sp_table_part_changed();
CREATE TRIGGER sp_restore_records_changed AFTER INSERT OR UPDATE OR DELETE ON sp_restore_records
  FOR EACH ROW EXECUTE FUNCTION sp_table_part_changed();
-- [jooq ignore stop]
