package dev.stillpoint.adapters.postgres;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.ports.in.SegmentedSnapshot;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * [E1] A snapshot opened with {@code StoredKeys.INCLUDED} gives each item the key its row is stored under, in
 * the one stream and in every segment, both layouts; it matches the item's own key (a text key holding U+0000
 * and U+0001, which the column keeps in another form, a number written with other digits, bytes) and no
 * other; {@code OMITTED} gives none and the same items. Until 68ddc45 PostgreSQL gave none either way.
 */
class PostgresStoredKeyTest {

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("storedkey");

    private static final KeySchema KEY = KeySchema.composite("pk", "sk");

    @ParameterizedTest
    @EnumSource(Layout.class)
    void e1_everyItemCarriesItsRowsKeyWhenAskedAndNoneOtherwise(Layout layout) {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            String name = Tables.uniqueName("stored_key");
            Tables.createActive(storage.tables(), new CreateTableRequest(ACCOUNT, name, KEY,
                    List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.B)),
                    List.of(), List.of(), Optional.empty()));
            List<Item> put = new ArrayList<>();
            for (String pk : List.of("a", "a\u0000b\u0001c", "\uD83D\uDE00", "z")) {
                for (int i = 0; i < 3; i++) {
                    put.add(Item.of(Map.of("pk", AttributeValue.s(pk), "sk", new AttributeValue.B(new byte[] {(byte) i, (byte) 0xFF}))));
                }
            }
            put.forEach(item -> storage.tables().putItem(ACCOUNT, name, item));

            List<StoredItem> items = new ArrayList<>();
            try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, name, StoredKeys.INCLUDED)) {
                s.items().forEachRemaining(items::add);
            }
            assertThat(items).extracting(StoredItem::item).containsExactlyInAnyOrderElementsOf(put);
            items.forEach(PostgresStoredKeyTest::carriesItsOwnKey);

            try (SegmentedSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, name, StoredKeys.INCLUDED, 2)) {
                List<StoredItem> segmented = new ArrayList<>();
                s.segments().forEach(segment -> segment.forEachRemaining(segmented::add));
                assertThat(segmented).as("[B2] the segments' items").extracting(StoredItem::item)
                        .containsExactlyInAnyOrderElementsOf(put);
                segmented.forEach(PostgresStoredKeyTest::carriesItsOwnKey);
            }

            try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, name, StoredKeys.OMITTED)) {
                List<StoredItem> omitted = new ArrayList<>();
                s.items().forEachRemaining(omitted::add);
                assertThat(omitted).extracting(StoredItem::json)
                        .containsExactlyElementsOf(items.stream().map(StoredItem::json).toList());
                assertThat(omitted).as("no stored key when omitted").allSatisfy(i -> assertThat(i.storedKey()).isEmpty());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void e1_aNumberKeyMatchesByValue(Layout layout) {
        try (PostgresStorage storage = PostgresStorage.open(databases.undelayed(layout))) {
            String name = Tables.uniqueName("stored_number");
            Tables.createActive(storage.tables(), Tables.withIndexes(name));
            storage.tables().putItem(ACCOUNT, name, Tables.item("p", 1500, "g", "l"));
            try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, name, StoredKeys.INCLUDED)) {
                StoredItem item = s.items().next();
                Key written = Key.of(AttributeValue.s("p"), AttributeValue.n("1.5E3"));
                assertThat(item.storedKey().orElseThrow().matches(written)).as("1.5E3 is the stored 1500").isTrue();
                assertThat(item.storedKey().orElseThrow().matches(Key.of(AttributeValue.s("p"), AttributeValue.n("1501"))))
                        .isFalse();
                assertThat(item.storedKey().orElseThrow().describe()).isEqualTo("pk=S 'p' sk=N '1500'");
            }
        }
    }

    private static void carriesItsOwnKey(StoredItem stored) {
        Key own = Key.of(stored.item(), KEY);
        assertThat(stored.storedKey()).as("own row's key of " + stored.json())
                .hasValueSatisfying(k -> assertThat(k.matches(own)).isTrue());
        Key other = Key.of(AttributeValue.s(((AttributeValue.S) own.partition()).value() + "x"), own.sort().orElseThrow());
        assertThat(stored.storedKey().orElseThrow().matches(other)).as("not another partition").isFalse();
        byte[] sk = ((AttributeValue.B) own.sort().orElseThrow()).bytes().clone();
        sk[sk.length - 1] = 0;
        assertThat(stored.storedKey().orElseThrow().matches(Key.of(own.partition(), new AttributeValue.B(sk))))
                .as("not another sort key").isFalse();
    }
}
