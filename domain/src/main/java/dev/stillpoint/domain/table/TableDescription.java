package dev.stillpoint.domain.table;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Names;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A table as the storage layer describes it: the catalog row's definition plus the counts of the
 * last statistics pass.
 *
 * <p>The constructor checks only what every description must satisfy (names, no index name twice, no
 * attribute defined twice), not that every key attribute is defined: a description read back from a
 * damaged catalog may lack a definition, and the snapshot must still describe it (it then streams
 * unordered [D1]). New tables are checked in full by {@link CreateTableRequest} and
 * {@link #requireKeyAttributesDefined()}.
 */
public record TableDescription(
        String accountId,
        String tableName,
        String tableId,
        String tableArn,
        TableStatus status,
        Instant creationTime,
        KeySchema keySchema,
        List<AttributeDefinition> attributeDefinitions,
        List<GlobalSecondaryIndex> globalSecondaryIndexes,
        List<LocalSecondaryIndex> localSecondaryIndexes,
        List<VectorIndex> vectorIndexes,
        Optional<StreamSpecification> streamSpecification,
        Optional<TimeToLive> timeToLive,
        Optional<RestoreSummary> restoreSummary,
        Optional<ThroughputModeSummary> throughputModeSummary,
        long itemCount,
        long tableSizeBytes,
        ChangeLog changeLog) {

    /** DynamoDB's default per-table quota of global secondary indexes. */
    public static final int MAX_GLOBAL_SECONDARY_INDEXES = 20;

    /** DynamoDB's per-table limit of local secondary indexes. */
    public static final int MAX_LOCAL_SECONDARY_INDEXES = 5;

    /**
     * DynamoDB's limit of non-key attributes projected into a table's secondary indexes, summed over them
     * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Projection.html).
     */
    public static final int MAX_PROJECTED_NON_KEY_ATTRIBUTES = 100;

    /**
     * Checks what every description must satisfy: names, no index name twice, no attribute defined twice.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param tableId the table's unique id
     * @param tableArn the table's ARN
     * @param status the table's reported status [D4]
     * @param creationTime when the table was created
     * @param keySchema the table's key
     * @param attributeDefinitions the types of the key attributes of the table and its indexes
     * @param globalSecondaryIndexes the table's global secondary indexes
     * @param localSecondaryIndexes the table's local secondary indexes
     * @param vectorIndexes the table's vector indexes
     * @param streamSpecification the change stream's setting, if any
     * @param timeToLive the time-to-live setting, if any
     * @param restoreSummary where a restored table came from, if it was restored
     * @param throughputModeSummary the throughput mode, when the API layer set it
     * @param itemCount the item count of the last statistics pass
     * @param tableSizeBytes the table's size in bytes of the last statistics pass
     * @param changeLog whether the table keeps a change log, and with which images [I1]; null is {@link ChangeLog#OFF}
     */
    public TableDescription {
        TableChecks.requiredText(accountId, "account id");
        Names.requireTableName(tableName);
        TableChecks.requiredText(tableId, "table id of '" + tableName + "'");
        TableChecks.requiredText(tableArn, "table ARN of '" + tableName + "'");
        TableChecks.required(status, "status of table '" + tableName + "'");
        TableChecks.required(creationTime, "creation time of table '" + tableName + "'");
        TableChecks.required(keySchema, "key schema of table '" + tableName + "'");
        attributeDefinitions = TableChecks.copy(attributeDefinitions, "attribute definition");
        globalSecondaryIndexes = TableChecks.copy(globalSecondaryIndexes, "global secondary index");
        localSecondaryIndexes = TableChecks.copy(localSecondaryIndexes, "local secondary index");
        vectorIndexes = TableChecks.copy(vectorIndexes, "vector index");
        streamSpecification = TableChecks.orEmpty(streamSpecification);
        timeToLive = TableChecks.orEmpty(timeToLive);
        restoreSummary = TableChecks.orEmpty(restoreSummary);
        throughputModeSummary = TableChecks.orEmpty(throughputModeSummary);
        TableChecks.nonNegative(itemCount, "item count of table '" + tableName + "'");
        TableChecks.nonNegative(tableSizeBytes, "size of table '" + tableName + "'");
        changeLog = changeLog == null ? ChangeLog.OFF : changeLog;
        TableChecks.definitionsByName(attributeDefinitions);
        TableChecks.requireDistinctIndexNames(tableName, indexNames(
                globalSecondaryIndexes, localSecondaryIndexes, vectorIndexes).toList());
    }

    /**
     * A description of a table that keeps no change log [I1], as every description was before the log existed.
     *
     * @param accountId the account the table belongs to
     * @param tableName the table's name
     * @param tableId the table's unique id
     * @param tableArn the table's ARN
     * @param status the table's reported status [D4]
     * @param creationTime when the table was created
     * @param keySchema the table's key
     * @param attributeDefinitions the types of the key attributes of the table and its indexes
     * @param globalSecondaryIndexes the table's global secondary indexes
     * @param localSecondaryIndexes the table's local secondary indexes
     * @param vectorIndexes the table's vector indexes
     * @param streamSpecification the change stream's setting, if any
     * @param timeToLive the time-to-live setting, if any
     * @param restoreSummary where a restored table came from, if it was restored
     * @param throughputModeSummary the throughput mode, when the API layer set it
     * @param itemCount the item count of the last statistics pass
     * @param tableSizeBytes the table's size in bytes of the last statistics pass
     */
    public TableDescription(String accountId, String tableName, String tableId, String tableArn, TableStatus status,
                            Instant creationTime, KeySchema keySchema, List<AttributeDefinition> attributeDefinitions,
                            List<GlobalSecondaryIndex> globalSecondaryIndexes,
                            List<LocalSecondaryIndex> localSecondaryIndexes, List<VectorIndex> vectorIndexes,
                            Optional<StreamSpecification> streamSpecification, Optional<TimeToLive> timeToLive,
                            Optional<RestoreSummary> restoreSummary, Optional<ThroughputModeSummary> throughputModeSummary,
                            long itemCount, long tableSizeBytes) {
        this(accountId, tableName, tableId, tableArn, status, creationTime, keySchema, attributeDefinitions,
                globalSecondaryIndexes, localSecondaryIndexes, vectorIndexes, streamSpecification, timeToLive,
                restoreSummary, throughputModeSummary, itemCount, tableSizeBytes, ChangeLog.OFF);
    }

    /**
     * This description with the change log set to {@code newChangeLog} [I1].
     *
     * @param newChangeLog the table's change log setting
     * @return the new description
     */
    public TableDescription withChangeLog(ChangeLog newChangeLog) {
        return new TableDescription(accountId, tableName, tableId, tableArn, status, creationTime, keySchema,
                attributeDefinitions, globalSecondaryIndexes, localSecondaryIndexes, vectorIndexes,
                streamSpecification, timeToLive, restoreSummary, throughputModeSummary, itemCount, tableSizeBytes,
                newChangeLog);
    }

    /**
     * The global secondary index named {@code name}, if the table has one.
     *
     * @param name the index name
     * @return the index, or empty
     */
    public Optional<GlobalSecondaryIndex> gsi(String name) {
        return globalSecondaryIndexes.stream().filter(g -> g.name().equals(name)).findFirst();
    }

    /**
     * The definition of {@code attributeName}, if there is one.
     *
     * @param attributeName the attribute name
     * @return its definition, or empty
     */
    public Optional<AttributeDefinition> definition(String attributeName) {
        return attributeDefinitions.stream().filter(d -> d.name().equals(attributeName)).findFirst();
    }

    /**
     * This description, after checking that every key attribute of the table and of each global
     * and local index has a definition, that local indexes have the shape DynamoDB requires, and
     * that the index counts are within the limits: what a new table must satisfy.
     *
     * @throws StorageException VALIDATION naming the first attribute or index that breaks a rule
     * @return this description, unchanged
     */
    public TableDescription requireKeyAttributesDefined() {
        Map<String, ScalarType> defined = TableChecks.definitionsByName(attributeDefinitions);
        TableChecks.requireDefined(keySchema, defined, TableChecks.table(tableName));
        for (GlobalSecondaryIndex g : globalSecondaryIndexes) {
            TableChecks.requireDefined(g.keySchema(), defined, TableChecks.gsi(g.name()));
        }
        for (LocalSecondaryIndex l : localSecondaryIndexes) {
            TableChecks.requireLocalIndexShape(tableName, keySchema, l);
            TableChecks.requireDefined(l.keySchema(), defined, TableChecks.lsi(l.name()));
        }
        TableChecks.requireAtMost(globalSecondaryIndexes.size(), MAX_GLOBAL_SECONDARY_INDEXES,
                "global secondary indexes", tableName);
        TableChecks.requireAtMost(localSecondaryIndexes.size(), MAX_LOCAL_SECONDARY_INDEXES,
                "local secondary indexes", tableName);
        return this;
    }

    /**
     * This description with the table in {@code newStatus}.
     *
     * @param newStatus the table's new status
     * @return the new description
     */
    public TableDescription withStatus(TableStatus newStatus) {
        return new TableDescription(accountId, tableName, tableId, tableArn, newStatus, creationTime, keySchema,
                attributeDefinitions, globalSecondaryIndexes, localSecondaryIndexes, vectorIndexes,
                streamSpecification, timeToLive, restoreSummary, throughputModeSummary, itemCount, tableSizeBytes,
                changeLog);
    }

    /**
     * This description with the running counts a statistics pass found (approximate, as DynamoDB's).
     *
     * @param newItemCount      the table's item count
     * @param newTableSizeBytes the bytes its stored items take
     * @return the new description
     */
    public TableDescription withCounts(long newItemCount, long newTableSizeBytes) {
        return new TableDescription(accountId, tableName, tableId, tableArn, status, creationTime, keySchema,
                attributeDefinitions, globalSecondaryIndexes, localSecondaryIndexes, vectorIndexes,
                streamSpecification, timeToLive, restoreSummary, throughputModeSummary, newItemCount, newTableSizeBytes,
                changeLog);
    }

    /**
     * This description with the running counts a statistics pass found for the secondary index
     * {@code indexName} (a GSI or an LSI); unchanged when it has no index of that name, as when the index
     * was deleted after it was counted.
     *
     * @param indexName    the index's name
     * @param newItemCount the index's entries
     * @param newSizeBytes the bytes they take
     * @return the new description
     */
    public TableDescription withIndexCounts(String indexName, long newItemCount, long newSizeBytes) {
        return new TableDescription(accountId, tableName, tableId, tableArn, status, creationTime, keySchema,
                attributeDefinitions,
                globalSecondaryIndexes.stream().map(g -> g.name().equals(indexName)
                        ? g.withCounts(newItemCount, newSizeBytes) : g).toList(),
                localSecondaryIndexes.stream().map(l -> l.name().equals(indexName)
                        ? l.withCounts(newItemCount, newSizeBytes) : l).toList(),
                vectorIndexes, streamSpecification, timeToLive, restoreSummary, throughputModeSummary, itemCount,
                tableSizeBytes, changeLog);
    }

    /**
     * This description with {@code index} added after the existing global indexes, as given. The
     * UpdateTable path, which also checks and merges definitions, is {@link #applyCreateGsi}.
     *
     * @throws StorageException VALIDATION when an index of that name exists, its INCLUDE projection names no
     *     attribute, the table already has {@value #MAX_GLOBAL_SECONDARY_INDEXES} global indexes, or its indexes
     *     would project more than
     *     {@value #MAX_PROJECTED_NON_KEY_ATTRIBUTES} non-key attributes in all
     * @param index the index to add
     * @return the description with the index added
     */
    public TableDescription withGlobalSecondaryIndex(GlobalSecondaryIndex index) {
        TableChecks.required(index, "global secondary index");
        requireNoIndexNamed(index.name());
        TableChecks.requireIncludeNamesAnAttribute(TableChecks.gsi(index.name()), index.projection());
        TableChecks.requireAtMost(globalSecondaryIndexes.size() + 1, MAX_GLOBAL_SECONDARY_INDEXES,
                "global secondary indexes", tableName);
        List<GlobalSecondaryIndex> gsis = new ArrayList<>(globalSecondaryIndexes);
        gsis.add(index);
        TableChecks.requireProjectionsWithinLimits(tableName, Stream.concat(gsis.stream().map(GlobalSecondaryIndex::projection),
                localSecondaryIndexes.stream().map(LocalSecondaryIndex::projection)).toList(), MAX_PROJECTED_NON_KEY_ATTRIBUTES);
        return withIndexes(attributeDefinitions, gsis, vectorIndexes);
    }

    /**
     * This description after UpdateTable's Create of a global index: the index CREATING,
     * backfilling and empty, appended after the existing ones, and the definitions of its key attributes
     * the table does not define yet added after the table's.
     *
     * @throws StorageException RESOURCE_IN_USE when the table is not ACTIVE; VALIDATION when the
     *     name is taken, the limit is reached, or a key attribute of the index is defined nowhere
     * @param request the UpdateTable request adding a GSI
     * @return the description with the index and its new definitions added
     */
    public TableDescription applyCreateGsi(CreateGsiRequest request) {
        TableChecks.required(request, "create global secondary index request");
        if (status != TableStatus.ACTIVE) {
            // UpdateTable is only accepted on an ACTIVE table, as DynamoDB answers.
            throw StorageException.resourceInUse("table '" + tableName + "' is " + status
                    + ", so global secondary index '" + request.index().name() + "' cannot be created now");
        }
        GlobalSecondaryIndex requested = request.index();
        GlobalSecondaryIndex index = GlobalSecondaryIndex.creating(
                requested.name(), requested.keySchema(), requested.projection());
        Map<String, ScalarType> existing = TableChecks.definitionsByName(attributeDefinitions);
        Set<String> indexKey = TableChecks.keyAttributes(index.keySchema());
        List<AttributeDefinition> merged = new ArrayList<>(attributeDefinitions);
        // The request's definitions are a delta, as DynamoDB takes them (observed in eu-west-2, recorded in
        // nubo-db/dynoxide issues 129 and 131): one the table already has keeps the table's type, one that
        // no key uses is dropped, neither an error; the rest are the new index's own.
        for (AttributeDefinition d : request.newDefinitions()) {
            if (!existing.containsKey(d.name()) && indexKey.contains(d.name())) {
                merged.add(d);
            }
        }
        TableChecks.requireDefined(index.keySchema(), TableChecks.definitionsByName(merged),
                TableChecks.gsi(index.name()));
        return withIndexes(merged, globalSecondaryIndexes, vectorIndexes).withGlobalSecondaryIndex(index);
    }

    /**
     * This description with the global or vector index {@code indexName} in {@code newStatus}
     * (a global index stops backfilling once it leaves CREATING).
     *
     * @throws StorageException VALIDATION when the table has no such index, or when it names a
     *     local index, which has no status of its own
     * @param indexName the name of a global or vector index of the table
     * @param newStatus the index's new status
     * @return the new description
     */
    public TableDescription withIndexStatus(String indexName, IndexStatus newStatus) {
        TableChecks.required(newStatus, "status of index '" + indexName + "'");
        if (gsi(indexName).isPresent()) {
            List<GlobalSecondaryIndex> gsis = globalSecondaryIndexes.stream()
                    .map(g -> g.name().equals(indexName) ? g.withStatus(newStatus) : g)
                    .toList();
            return withIndexes(attributeDefinitions, gsis, vectorIndexes);
        }
        if (vectorIndexes.stream().anyMatch(v -> v.name().equals(indexName))) {
            List<VectorIndex> vectors = vectorIndexes.stream()
                    .map(v -> v.name().equals(indexName) ? v.withStatus(newStatus) : v)
                    .toList();
            return withIndexes(attributeDefinitions, globalSecondaryIndexes, vectors);
        }
        if (localSecondaryIndexes.stream().anyMatch(l -> l.name().equals(indexName))) {
            throw StorageException.validation(TableChecks.lsi(indexName) + " of table '" + tableName
                    + "' shares the table's status and has none of its own");
        }
        throw StorageException.validation("table '" + tableName + "' has no index named '" + indexName + "'");
    }

    /**
     * The description a snapshot reports for the indexes [D9]: every index kept in whatever build
     * state it has (a CREATING index comes back complete from a restore; one left out would not
     * come back at all), except a DELETING global or vector index. Local indexes are never
     * dropped. The attribute definitions only a dropped global index used go with it, so the
     * result is still a valid CreateTable definition. Order is kept; applying it twice changes
     * nothing more.
     *
     * @return the description without its DELETING indexes
     */
    public TableDescription dropDeletingIndexes() {
        List<VectorIndex> vectors = vectorIndexes.stream()
                .filter(v -> v.status() != IndexStatus.DELETING)
                .toList();
        return withoutGsis(g -> g.status() == IndexStatus.DELETING, vectors);
    }

    /**
     * This description without the global indexes whose data relation is missing [D9], and without
     * the attribute definitions only they used: a definition also used by the table key, a local
     * index or a remaining global index stays, and so does any definition no dropped index used.
     *
     * @param gsiNamesWithRelation the names of the global indexes whose data relation exists
     * @return the description without those global indexes
     */
    public TableDescription withoutGsisMissingRelations(Set<String> gsiNamesWithRelation) {
        TableChecks.required(gsiNamesWithRelation, "names of global secondary indexes with a data relation");
        return withoutGsis(g -> !gsiNamesWithRelation.contains(g.name()), vectorIndexes);
    }

    /**
     * The description a snapshot carries [S2]: this one with the running counts of the table and
     * of every index zeroed and the throughput-mode summary cleared; the restore summary is kept.
     *
     * @return the snapshot's description
     */
    public TableDescription snapshotView() {
        return new TableDescription(accountId, tableName, tableId, tableArn, status, creationTime, keySchema,
                attributeDefinitions,
                globalSecondaryIndexes.stream().map(GlobalSecondaryIndex::withoutCounts).toList(),
                localSecondaryIndexes.stream().map(LocalSecondaryIndex::withoutCounts).toList(),
                vectorIndexes, streamSpecification, timeToLive, restoreSummary, Optional.empty(), 0, 0, changeLog);
    }

    private TableDescription withoutGsis(Predicate<GlobalSecondaryIndex> dropped, List<VectorIndex> vectors) {
        List<GlobalSecondaryIndex> kept = new ArrayList<>();
        Set<String> droppedKeyAttributes = new HashSet<>();
        for (GlobalSecondaryIndex g : globalSecondaryIndexes) {
            if (dropped.test(g)) {
                droppedKeyAttributes.addAll(TableChecks.keyAttributes(g.keySchema()));
            } else {
                kept.add(g);
            }
        }
        Set<String> stillUsed = new HashSet<>(TableChecks.keyAttributes(keySchema));
        localSecondaryIndexes.forEach(l -> stillUsed.addAll(TableChecks.keyAttributes(l.keySchema())));
        kept.forEach(g -> stillUsed.addAll(TableChecks.keyAttributes(g.keySchema())));
        // Only what a dropped index used goes: an unused definition from elsewhere is not ours to fix.
        List<AttributeDefinition> definitions = attributeDefinitions.stream()
                .filter(d -> !droppedKeyAttributes.contains(d.name()) || stillUsed.contains(d.name()))
                .toList();
        return withIndexes(definitions, kept, vectors);
    }

    private void requireNoIndexNamed(String indexName) {
        if (indexNames(globalSecondaryIndexes, localSecondaryIndexes, vectorIndexes).anyMatch(indexName::equals)) {
            throw StorageException.validation("table '" + tableName + "' already has an index named '"
                    + indexName + "'");
        }
    }

    private TableDescription withIndexes(
            List<AttributeDefinition> definitions, List<GlobalSecondaryIndex> gsis, List<VectorIndex> vectors) {
        return new TableDescription(accountId, tableName, tableId, tableArn, status, creationTime, keySchema,
                definitions, gsis, localSecondaryIndexes, vectors, streamSpecification, timeToLive, restoreSummary,
                throughputModeSummary, itemCount, tableSizeBytes, changeLog);
    }

    private static Stream<String> indexNames(
            List<GlobalSecondaryIndex> gsis, List<LocalSecondaryIndex> lsis, List<VectorIndex> vectors) {
        return Stream.of(
                gsis.stream().map(GlobalSecondaryIndex::name),
                lsis.stream().map(LocalSecondaryIndex::name),
                vectors.stream().map(VectorIndex::name)).flatMap(s -> s);
    }
}
