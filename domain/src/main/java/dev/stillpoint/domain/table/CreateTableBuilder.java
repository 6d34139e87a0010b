package dev.stillpoint.domain.table;

import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds a {@link CreateTableRequest} by name instead of seven positional arguments. Attribute
 * definitions are collected from the keys as they are declared (the table's, then each index's),
 * so a definition is never forgotten or left unused; {@link #build()} runs the request's own checks.
 *
 * <pre>{@code
 * CreateTableRequest request = CreateTableRequest.builder("acct", "orders")
 *         .partitionKey("customer", ScalarType.S).sortKey("placed", ScalarType.N)
 *         .globalIndex("by_status", "status", ScalarType.S, Projection.all())
 *         .build();
 * }</pre>
 */
public final class CreateTableBuilder {

    private final String accountId;
    private final String tableName;
    private String partitionKey;
    private Optional<String> sortKey = Optional.empty();
    private final Map<String, ScalarType> definitions = new LinkedHashMap<>();
    private final List<GlobalSecondaryIndex> gsis = new ArrayList<>();
    private final List<LocalSecondaryIndex> lsis = new ArrayList<>();
    private Optional<StreamSpecification> stream = Optional.empty();
    private Optional<TimeToLive> timeToLive = Optional.empty();
    private ChangeLog changeLog = ChangeLog.OFF;

    CreateTableBuilder(String accountId, String tableName) {
        this.accountId = accountId;
        this.tableName = tableName;
    }

    /**
     * The table's partition (hash) key and its type.
     *
     * @param name the attribute name
     * @param type its scalar type
     * @return this builder
     */
    public CreateTableBuilder partitionKey(String name, ScalarType type) {
        this.partitionKey = name;
        definitions.put(name, type);
        return this;
    }

    /**
     * The table's sort (range) key and its type.
     *
     * @param name the attribute name
     * @param type its scalar type
     * @return this builder
     */
    public CreateTableBuilder sortKey(String name, ScalarType type) {
        this.sortKey = Optional.of(name);
        definitions.put(name, type);
        return this;
    }

    /**
     * A GSI keyed by {@code partitionKey} alone.
     *
     * @param name the index name
     * @param partitionKey the index's partition attribute
     * @param type its scalar type
     * @param projection the attributes the index holds
     * @return this builder
     */
    public CreateTableBuilder globalIndex(String name, String partitionKey, ScalarType type, Projection projection) {
        definitions.put(partitionKey, type);
        gsis.add(GlobalSecondaryIndex.creating(name, KeySchema.hashOnly(partitionKey), projection));
        return this;
    }

    /**
     * A GSI keyed by {@code partitionKey} and {@code sortKey}.
     *
     * @param name the index name
     * @param partitionKey the index's partition attribute
     * @param partitionType its scalar type
     * @param sortKey the index's sort attribute
     * @param sortType its scalar type
     * @param projection the attributes the index holds
     * @return this builder
     */
    public CreateTableBuilder globalIndex(String name, String partitionKey, ScalarType partitionType,
                                          String sortKey, ScalarType sortType, Projection projection) {
        definitions.put(partitionKey, partitionType);
        definitions.put(sortKey, sortType);
        gsis.add(GlobalSecondaryIndex.creating(name, KeySchema.composite(partitionKey, sortKey), projection));
        return this;
    }

    /**
     * An LSI: the table's partition key with another sort key (the table must have a sort key).
     *
     * @param name the index name
     * @param sortKey the index's sort attribute
     * @param type its scalar type
     * @param projection the attributes the index holds
     * @return this builder
     */
    public CreateTableBuilder localIndex(String name, String sortKey, ScalarType type, Projection projection) {
        definitions.put(sortKey, type);
        lsis.add(LocalSecondaryIndex.of(name, KeySchema.composite(partitionKey, sortKey), projection));
        return this;
    }

    /**
     * A stream of the given view type ({@code NEW_AND_OLD_IMAGES} and the like).
     *
     * @param viewType what each stream record shows
     * @return this builder
     */
    public CreateTableBuilder stream(String viewType) {
        this.stream = Optional.of(StreamSpecification.enabled(viewType));
        return this;
    }

    /**
     * A time-to-live setting, as a restore carries it from the exported table [E4].
     *
     * @param attributeName the attribute holding the expiry time
     * @param enabled whether expiry is on
     * @return this builder
     */
    public CreateTableBuilder timeToLive(String attributeName, boolean enabled) {
        this.timeToLive = Optional.of(new TimeToLive(attributeName, enabled));
        return this;
    }

    /**
     * A change log kept from creation [I1]: every put, overwrite and delete recorded with the write.
     *
     * @param setting {@link ChangeLog#NEW_IMAGE} or {@link ChangeLog#NEW_AND_OLD_IMAGES} ({@link ChangeLog#OFF}, the default, keeps none)
     * @return this builder
     */
    public CreateTableBuilder changeLog(ChangeLog setting) {
        this.changeLog = setting;
        return this;
    }

    /**
     * The request, checked in full (a validation error names what is wrong).
     *
     * @return the CreateTable request
     */
    public CreateTableRequest build() {
        KeySchema schema = partitionKey == null ? null
                : sortKey.map(s -> KeySchema.composite(partitionKey, s)).orElse(KeySchema.hashOnly(partitionKey));
        List<AttributeDefinition> defined = new ArrayList<>();
        definitions.forEach((name, type) -> defined.add(new AttributeDefinition(name, type)));
        return new CreateTableRequest(accountId, tableName, schema, defined, gsis, lsis, stream, timeToLive, changeLog);
    }
}
