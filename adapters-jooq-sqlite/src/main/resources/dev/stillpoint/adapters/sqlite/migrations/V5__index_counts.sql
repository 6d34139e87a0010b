-- Each secondary index's running counts, DescribeTable's ItemCount and IndexSizeBytes of a GSI or LSI:
-- recounted with the table's by the statistics pass, 0 until its first pass. Like the table's own counts
-- they are not part of the definition, so the trigger that advances catalog_version on a change of an
-- index row now names every column but these two; a recount invalidates no item write's cached definition.
ALTER TABLE sp_indexes ADD COLUMN item_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sp_indexes ADD COLUMN size_bytes BIGINT NOT NULL DEFAULT 0;

-- [jooq ignore start]
DROP TRIGGER sp_indexes_changed;

CREATE TRIGGER sp_indexes_changed AFTER UPDATE OF table_id, index_name, kind, ordinal, relation_name,
    partition_key_name, partition_key_type, sort_key_name, sort_key_type, projection_json, status, backfilling
    ON sp_indexes
BEGIN
  UPDATE sp_tables SET catalog_version = catalog_version + 1 WHERE table_id IN (OLD.table_id, NEW.table_id);
END;
-- [jooq ignore stop]
