package dev.stillpoint.properties.table;

import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.domain.table.ThroughputModeSummary;
import dev.stillpoint.domain.table.TimeToLive;
import dev.stillpoint.domain.table.VectorIndex;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Generators and builders for table descriptions and requests, in one place. Key attributes come
 * from a small pool so indexes share attributes with the table and each other, which is where
 * the definition-pruning rule [D9] has something to decide.
 */
final class TableArbitraries {
    static final List<String> KEY_ATTRIBUTES = List.of("pk", "sk", "a1", "a2", "a3", "a4");
    /** Defined but used by no key: only a damaged catalog holds these. */
    static final List<String> STRAY_ATTRIBUTES = List.of("x1", "x2");
    static final Instant CREATED = Instant.parse("2026-10-13T12:00:00Z");

    private TableArbitraries() {
    }

    /** Any description a catalog might hold, damaged ones (missing or stray definitions) included. */
    static Arbitrary<TableDescription> descriptions() {
        return shapes().flatMap(shape -> Combinators.combine(
                        Arbitraries.of(TableStatus.class),
                        definitionTypes(),
                        damage(),
                        tails())
                .as((status, types, damage, tail) -> shape.describe(status, types, damage, tail)));
    }

    /** Descriptions with every key attribute defined and no stray definition, as CreateTable makes them. */
    static Arbitrary<TableDescription> intactDescriptions() {
        return shapes().flatMap(shape -> Combinators.combine(
                        Arbitraries.of(TableStatus.class), definitionTypes(), tails())
                .as((status, types, tail) -> shape.describe(status, types, Damage.NONE, tail)));
    }

    /** Valid CreateTable requests. */
    static Arbitrary<CreateTableRequest> createTableRequests() {
        return intactDescriptions().map(TableArbitraries::requestFor);
    }

    static CreateTableRequest requestFor(TableDescription d) {
        return new CreateTableRequest(d.accountId(), d.tableName(), d.keySchema(), d.attributeDefinitions(),
                d.globalSecondaryIndexes(), d.localSecondaryIndexes(), d.streamSpecification());
    }

    /** The key attributes of the table, its LSIs and its GSIs, in that order. */
    static Set<String> keyAttributesOf(KeySchema... schemas) {
        Set<String> names = new LinkedHashSet<>();
        for (KeySchema k : schemas) {
            names.add(k.partitionKey());
            k.sortKey().ifPresent(names::add);
        }
        return names;
    }

    static Set<String> keyAttributesOf(TableDescription d, List<GlobalSecondaryIndex> gsis) {
        Set<String> names = keyAttributesOf(d.keySchema());
        d.localSecondaryIndexes().forEach(l -> names.addAll(keyAttributesOf(l.keySchema())));
        gsis.forEach(g -> names.addAll(keyAttributesOf(g.keySchema())));
        return names;
    }

    /** The indexes and keys of a table, before definitions and states are chosen. */
    record Shape(KeySchema key, List<GlobalSecondaryIndex> gsis, List<LocalSecondaryIndex> lsis, List<VectorIndex> vectors) {
        TableDescription describe(TableStatus status, List<ScalarType> types, Damage damage, Tail tail) {
            Set<String> used = keyAttributesOf(key);
            lsis.forEach(l -> used.addAll(keyAttributesOf(l.keySchema())));
            gsis.forEach(g -> used.addAll(keyAttributesOf(g.keySchema())));
            List<AttributeDefinition> definitions = new ArrayList<>();
            for (int i = 0; i < KEY_ATTRIBUTES.size(); i++) {
                String name = KEY_ATTRIBUTES.get(i);
                if (used.contains(name) && !damage.undefined().contains(name)) {
                    definitions.add(new AttributeDefinition(name, types.get(i)));
                }
            }
            damage.stray().forEach(name -> definitions.add(new AttributeDefinition(name, ScalarType.S)));
            return new TableDescription("123456789012", "orders.v2", "tbl-0001",
                    "arn:aws:dynamodb:local:123456789012:table/orders.v2", status, CREATED, key, definitions,
                    gsis, lsis, vectors, tail.stream(), tail.ttl(), tail.restore(), tail.throughput(),
                    tail.itemCount(), tail.sizeBytes());
        }
    }

    /** Definitions a damaged catalog lacks, and ones it holds that no key uses. */
    record Damage(Set<String> undefined, Set<String> stray) {
        static final Damage NONE = new Damage(Set.of(), Set.of());
    }

    /** Everything of a description that is not a key, an index or a definition. */
    record Tail(Optional<StreamSpecification> stream, Optional<TimeToLive> ttl, Optional<RestoreSummary> restore,
            Optional<ThroughputModeSummary> throughput, long itemCount, long sizeBytes) {
    }

    static Arbitrary<Shape> shapes() {
        return tableKeys().flatMap(key -> Combinators.combine(
                        gsiBodies().list().ofMaxSize(8),
                        lsiSortKeys(key),
                        vectorBodies().list().ofMaxSize(3))
                .as((gsiBodies, lsiSorts, vectorBodies) -> new Shape(key,
                        IntStream.range(0, gsiBodies.size()).mapToObj(i -> gsiBodies.get(i).named("gsi" + i)).toList(),
                        IntStream.range(0, lsiSorts.size()).mapToObj(i -> new LocalSecondaryIndex("lsi" + i,
                                KeySchema.composite(key.partitionKey(), lsiSorts.get(i)), Projection.keysOnly(),
                                7 * i, 100 * i)).toList(),
                        IntStream.range(0, vectorBodies.size()).mapToObj(i -> vectorBodies.get(i).named("vec" + i))
                                .toList())));
    }

    private static Arbitrary<KeySchema> tableKeys() {
        return Arbitraries.of("pk", "sk").flatMap(p -> Arbitraries.of("sk", "a1").optional(0.7)
                .map(s -> new KeySchema(p, s.filter(x -> !x.equals(p)))));
    }

    private static Arbitrary<KeySchema> anyKeys() {
        return Arbitraries.of(KEY_ATTRIBUTES).flatMap(p -> Arbitraries.of(KEY_ATTRIBUTES).optional(0.6)
                .map(s -> new KeySchema(p, s.filter(x -> !x.equals(p)))));
    }

    /** LSIs exist only on a table with a sort key; each shares the table's partition key. */
    private static Arbitrary<List<String>> lsiSortKeys(KeySchema key) {
        if (key.sortKey().isEmpty()) {
            return Arbitraries.just(List.of());
        }
        return Arbitraries.of(KEY_ATTRIBUTES).filter(a -> !a.equals(key.partitionKey())).list().ofMaxSize(3);
    }

    private record GsiBody(KeySchema key, Projection projection, IndexStatus status, boolean backfilling,
            long itemCount, long sizeBytes) {
        GlobalSecondaryIndex named(String name) {
            return new GlobalSecondaryIndex(name, key, projection, status, backfilling, itemCount, sizeBytes);
        }
    }

    private static Arbitrary<GsiBody> gsiBodies() {
        Arbitrary<Projection> projections = Arbitraries.of(
                Projection.all(), Projection.keysOnly(), Projection.include(List.of("note", "price")));
        return Combinators.combine(anyKeys(), projections, Arbitraries.of(IndexStatus.class), Arbitraries.of(true, false),
                        Arbitraries.longs().between(0, 1_000_000), Arbitraries.longs().between(0, 1L << 40))
                .as(GsiBody::new);
    }

    private record VectorBody(String attribute, int dimensions, String metric, IndexStatus status) {
        VectorIndex named(String name) {
            return new VectorIndex(name, attribute, dimensions, metric, status);
        }
    }

    private static Arbitrary<VectorBody> vectorBodies() {
        return Combinators.combine(Arbitraries.of("embedding", "vec"), Arbitraries.integers().between(1, 4096),
                        Arbitraries.of("COSINE", "EUCLIDEAN", "DOT_PRODUCT"), Arbitraries.of(IndexStatus.class))
                .as(VectorBody::new);
    }

    /** One type per attribute of {@link #KEY_ATTRIBUTES}, by position. */
    private static Arbitrary<List<ScalarType>> definitionTypes() {
        return Arbitraries.of(ScalarType.class).list().ofSize(KEY_ATTRIBUTES.size());
    }

    private static Arbitrary<Damage> damage() {
        Arbitrary<Damage> damaged = Combinators.combine(
                        Arbitraries.subsetOf(KEY_ATTRIBUTES).ofMaxSize(2), Arbitraries.subsetOf(STRAY_ATTRIBUTES))
                .as(Damage::new);
        return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(Damage.NONE)), Tuple.of(2, damaged));
    }

    private static Arbitrary<Tail> tails() {
        Arbitrary<Optional<StreamSpecification>> streams = Arbitraries.of(
                StreamSpecification.enabled("NEW_AND_OLD_IMAGES"), StreamSpecification.disabled()).optional();
        Arbitrary<Optional<TimeToLive>> ttls = Arbitraries.of(
                new TimeToLive("expiresAt", true), new TimeToLive("ttl", false)).optional();
        Arbitrary<Optional<RestoreSummary>> restores = Arbitraries.of(
                new RestoreSummary(Optional.of("arn:aws:dynamodb:local:123456789012:table/src/backup/01"),
                        Optional.of("arn:aws:dynamodb:local:123456789012:table/src"), CREATED.minusSeconds(60), false),
                new RestoreSummary(Optional.empty(), Optional.of("arn:aws:dynamodb:local:123456789012:table/src"),
                        CREATED, true)).optional();
        Arbitrary<Optional<ThroughputModeSummary>> throughputs = Arbitraries.of(
                new ThroughputModeSummary("PAY_PER_REQUEST", CREATED)).optional();
        return Combinators.combine(streams, ttls, restores, throughputs,
                        Arbitraries.longs().between(0, 1_000_000), Arbitraries.longs().between(0, 1L << 40))
                .as(Tail::new);
    }
}
