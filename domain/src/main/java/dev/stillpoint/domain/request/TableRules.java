package dev.stillpoint.domain.request;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Names;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;

/**
 * The table-level request rules: names and account ids on every operation [R1, R2], key attribute
 * names of a new table or index [R2], and which table states admit item operations.
 */
public final class TableRules {

    private TableRules() {
    }

    /**
     * Checks the account id and table name every table-addressed operation carries [R1, R2].
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     */
    public static void requireAddress(String accountId, String tableName) {
        AccountIds.require(accountId);
        Names.requireTableName(tableName);
    }

    /**
     * Checks what {@link CreateTableRequest}'s own construction does not: the account id and key names.
     *
     * @param request the CreateTable request
     * @return {@code request}, unchanged
     */
    public static CreateTableRequest requireCreatable(CreateTableRequest request) {
        if (request == null) {
            throw StorageException.validation("CreateTable request is required, got null");
        }
        AccountIds.require(request.accountId());
        requireKeyNames(request.keySchema(), "the key of table '" + request.tableName() + "'");
        for (GlobalSecondaryIndex gsi : request.gsis()) {
            requireKeyNames(gsi.keySchema(), "the key of index '" + gsi.name() + "'");
        }
        for (LocalSecondaryIndex lsi : request.lsis()) {
            requireKeyNames(lsi.keySchema(), "the key of index '" + lsi.name() + "'");
        }
        for (AttributeDefinition definition : request.attributeDefinitions()) {
            AttributeNames.requireKeyName(definition.name(), "an attribute definition of table '" + request.tableName() + "'");
        }
        return request;
    }

    /**
     * Checks an UpdateTable that adds a GSI: the index name and its key names [R1, R2], and that the
     * request's attribute definitions name every key attribute of the new index, even one the table already
     * defines: the API reference's "AttributeDefinitions must include the key element(s) of the new index"
     * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTable.html), which DynamoDB
     * enforces ("Some index key attributes are not defined in AttributeDefinitions", observed in eu-west-2 and
     * recorded in nubo-db/dynoxide issue 144).
     *
     * @param request the UpdateTable request adding a GSI
     * @return {@code request}, unchanged
     */
    public static CreateGsiRequest requireCreatable(CreateGsiRequest request) {
        if (request == null) {
            throw StorageException.validation("UpdateTable request is required, got null");
        }
        String index = request.index().name();
        Names.requireIndexName(index);
        requireKeyNames(request.index().keySchema(), "the key of index '" + index + "'");
        for (AttributeDefinition definition : request.newDefinitions()) {
            AttributeNames.requireKeyName(definition.name(), "an attribute definition of index '" + index + "'");
        }
        request.index().keySchema().attributeNames().stream()
                .filter(a -> request.newDefinitions().stream().noneMatch(d -> d.name().equals(a)))
                .findFirst().ifPresent(a -> {
                    throw StorageException.validation("key attribute '" + a + "' of global secondary index '" + index
                            + "' is not among the request's attribute definitions " + request.newDefinitions().stream()
                            .map(AttributeDefinition::name).toList() + ": UpdateTable defines every key attribute of a"
                            + " new index, even one the table already defines");
                });
        return request;
    }

    /**
     * {@code table} if its items can be read and written: ACTIVE. A CREATING table is not found yet
     * and a DELETING one is in use, as DynamoDB answers.
     *
     * @param table the table's description as the unit of work read it
     * @return {@code table}, unchanged
     */
    public static TableDescription requireItemsAvailable(TableDescription table) {
        if (table.status() == TableStatus.ACTIVE) {
            return table;
        }
        ErrorReason reason = table.status() == TableStatus.CREATING ? ErrorReason.TABLE_NOT_FOUND : ErrorReason.RESOURCE_IN_USE;
        throw new StorageException(reason, "table '" + table.tableName() + "' is " + table.status().name()
                + "; its items can be read and written once it is ACTIVE");
    }

    /**
     * The change log setting a table switches to [I1], checked against the table as stored: the table
     * must admit item work (a CREATING or DELETING table cannot change), and a log that is on cannot change
     * its view while it stays on, since a window spanning the change would hold old images for some of its
     * changes only; switching it off and on again starts a new log. Asking for the setting the table has is
     * no change (the log is kept, so its markers stay good), as point-in-time recovery's switch is. The view
     * rule follows DynamoDB's for streams, whose UpdateTable answers ValidationException "if you try to enable a
     * stream on a table that already has a stream" (API reference, UpdateTable, StreamSpecification:
     * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTable.html): a view changes
     * only through off.
     *
     * @param table the table as the switch's unit of work read it
     * @param setting the setting asked for
     * @return {@code setting}
     * @throws StorageException VALIDATION naming both views when a log that is on would change its view;
     *     VALIDATION when {@code setting} is null; as {@link #requireItemsAvailable} when the table is not ACTIVE
     */
    public static ChangeLog requireChangeLogSwitch(TableDescription table, ChangeLog setting) {
        if (setting == null) {
            throw StorageException.validation("the change log setting of table '" + table.tableName()
                    + "' is required (OFF, NEW_IMAGE or NEW_AND_OLD_IMAGES), got null [I1]");
        }
        requireItemsAvailable(table);
        ChangeLog now = table.changeLog();
        if (now.enabled() && setting.enabled() && now != setting) {
            throw StorageException.validation("table '" + table.tableName() + "' keeps a change log of " + now
                    + "; it cannot become " + setting + " while it is on (a window would hold old images for"
                    + " some changes only): switch it OFF, then on as " + setting + ", which starts a new log [I1]");
        }
        return setting;
    }

    private static void requireKeyNames(KeySchema schema, String role) {
        AttributeNames.requireKeyName(schema.partitionKey(), role);
        schema.sortKey().ifPresent(s -> AttributeNames.requireKeyName(s, role));
    }
}
