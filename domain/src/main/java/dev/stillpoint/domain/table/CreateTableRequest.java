package dev.stillpoint.domain.table;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Names;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A CreateTable request, checked in full on construction so an invalid one cannot exist: valid
 * names, no index name twice, at most {@value TableDescription#MAX_GLOBAL_SECONDARY_INDEXES} global
 * and {@value TableDescription#MAX_LOCAL_SECONDARY_INDEXES} local indexes, a definition for every key
 * attribute of the table and its indexes and none that no key uses (DynamoDB's rule), and local
 * indexes that share the table's partition key on a table with a sort key; an INCLUDE projection names an
 * attribute, and a disabled stream has no view type.
 */
public record CreateTableRequest(
        String accountId,
        String tableName,
        KeySchema keySchema,
        List<AttributeDefinition> attributeDefinitions,
        List<GlobalSecondaryIndex> gsis,
        List<LocalSecondaryIndex> lsis,
        Optional<StreamSpecification> stream,
        Optional<TimeToLive> timeToLive,
        ChangeLog changeLog) {

    /**
     * Checks the request in full; a validation error names the first thing wrong. Copies the lists.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param keySchema the table's key
     * @param attributeDefinitions the types of the key attributes of the table and its indexes
     * @param gsis the global secondary indexes to create with the table
     * @param lsis the local secondary indexes to create with the table
     * @param stream the change stream's setting, if given
     * @param timeToLive the time-to-live setting, if given
     * @param changeLog whether the table keeps a change log [I1]; null is {@link ChangeLog#OFF}
     */
    public CreateTableRequest {
        TableChecks.requiredText(accountId, "account id");
        Names.requireTableName(tableName);
        TableChecks.required(keySchema, "key schema of table '" + tableName + "'");
        attributeDefinitions = TableChecks.copy(attributeDefinitions, "attribute definition");
        gsis = TableChecks.copy(gsis, "global secondary index");
        lsis = TableChecks.copy(lsis, "local secondary index");
        stream = TableChecks.orEmpty(stream);
        timeToLive = TableChecks.orEmpty(timeToLive);
        changeLog = changeLog == null ? ChangeLog.OFF : changeLog;

        Map<String, ScalarType> defined = TableChecks.definitionsByName(attributeDefinitions);
        TableChecks.requireDistinctIndexNames(tableName, Stream.concat(
                gsis.stream().map(GlobalSecondaryIndex::name),
                lsis.stream().map(LocalSecondaryIndex::name)).toList());
        TableChecks.requireAtMost(gsis.size(), TableDescription.MAX_GLOBAL_SECONDARY_INDEXES,
                "global secondary indexes", tableName);
        TableChecks.requireAtMost(lsis.size(), TableDescription.MAX_LOCAL_SECONDARY_INDEXES,
                "local secondary indexes", tableName);
        TableChecks.requireProjectionsWithinLimits(tableName, Stream.concat(gsis.stream().map(GlobalSecondaryIndex::projection),
                lsis.stream().map(LocalSecondaryIndex::projection)).toList(), TableDescription.MAX_PROJECTED_NON_KEY_ATTRIBUTES);
        gsis.forEach(g -> TableChecks.requireIncludeNamesAnAttribute(TableChecks.gsi(g.name()), g.projection()));
        lsis.forEach(l -> TableChecks.requireIncludeNamesAnAttribute(TableChecks.lsi(l.name()), l.projection()));
        stream.ifPresent(s -> requireNoViewTypeOnADisabledStream(tableName, s));

        Set<String> used = new HashSet<>();
        TableChecks.requireDefined(keySchema, defined, TableChecks.table(tableName));
        used.addAll(TableChecks.keyAttributes(keySchema));
        for (GlobalSecondaryIndex g : gsis) {
            TableChecks.requireDefined(g.keySchema(), defined, TableChecks.gsi(g.name()));
            used.addAll(TableChecks.keyAttributes(g.keySchema()));
        }
        for (LocalSecondaryIndex l : lsis) {
            TableChecks.requireLocalIndexShape(tableName, keySchema, l);
            TableChecks.requireDefined(l.keySchema(), defined, TableChecks.lsi(l.name()));
            used.addAll(TableChecks.keyAttributes(l.keySchema()));
        }
        for (String name : defined.keySet()) {
            if (!used.contains(name)) {
                throw StorageException.validation("attribute definition '" + name + "' is not used by the key of"
                        + " table '" + tableName + "' or any of its indexes");
            }
        }
    }

    // DynamoDB refuses a view type beside a disabled stream at CreateTable ("Table is being created with a stream disabled,
    // UpdateViewType should not be specified", recorded against DynamoDB in nubo-db/dynoxide issue 115).
    private static void requireNoViewTypeOnADisabledStream(String tableName, StreamSpecification stream) {
        if (!stream.enabled() && stream.viewType().isPresent()) {
            throw StorageException.validation("table '" + tableName + "' is created with its stream disabled, so it takes"
                    + " no stream view type, got: " + stream.viewType().get());
        }
    }

    /**
     * A request without a time-to-live setting, as CreateTable takes it.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param keySchema the table's key
     * @param attributeDefinitions the types of the key attributes of the table and its indexes
     * @param gsis the global secondary indexes to create with the table
     * @param lsis the local secondary indexes to create with the table
     * @param stream the change stream's setting, if given
     */
    public CreateTableRequest(String accountId, String tableName, KeySchema keySchema,
                              List<AttributeDefinition> attributeDefinitions, List<GlobalSecondaryIndex> gsis,
                              List<LocalSecondaryIndex> lsis, Optional<StreamSpecification> stream) {
        this(accountId, tableName, keySchema, attributeDefinitions, gsis, lsis, stream, Optional.empty());
    }

    /**
     * A request without a change log [I1], as every request was before the log existed.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param keySchema the table's key
     * @param attributeDefinitions the types of the key attributes of the table and its indexes
     * @param gsis the global secondary indexes to create with the table
     * @param lsis the local secondary indexes to create with the table
     * @param stream the change stream's setting, if given
     * @param timeToLive the time-to-live setting, if given
     */
    public CreateTableRequest(String accountId, String tableName, KeySchema keySchema,
                              List<AttributeDefinition> attributeDefinitions, List<GlobalSecondaryIndex> gsis,
                              List<LocalSecondaryIndex> lsis, Optional<StreamSpecification> stream,
                              Optional<TimeToLive> timeToLive) {
        this(accountId, tableName, keySchema, attributeDefinitions, gsis, lsis, stream, timeToLive, ChangeLog.OFF);
    }

    /**
     * A builder for a request on {@code tableName} of {@code accountId}: keys and indexes by name.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @return a builder with no key yet
     */
    public static CreateTableBuilder builder(String accountId, String tableName) {
        return new CreateTableBuilder(accountId, tableName);
    }

    /**
     * The ARN of the table this request creates, in the form DynamoDB Local gives its tables:
     * {@code arn:aws:dynamodb:local:<account>:table/<name>}. Every backend names its tables so.
     *
     * @return the new table's ARN
     */
    public String tableArn() {
        return "arn:aws:dynamodb:local:" + accountId + ":table/" + tableName;
    }

    /**
     * The description of the new table this request creates: CREATING, empty, with the indexes as
     * requested, the requested time-to-live and change log settings, and no vector index, restore or throughput summary yet.
     *
     * @param tableId the new table's unique id
     * @param tableArn the new table's ARN
     * @param creationTime when the table was created
     * @return the CREATING table's description
     */
    public TableDescription describe(String tableId, String tableArn, Instant creationTime) {
        return new TableDescription(accountId, tableName, tableId, tableArn, TableStatus.CREATING, creationTime,
                keySchema, attributeDefinitions, gsis, lsis, List.of(), stream, timeToLive, Optional.empty(),
                Optional.empty(), 0, 0, changeLog);
    }
}
