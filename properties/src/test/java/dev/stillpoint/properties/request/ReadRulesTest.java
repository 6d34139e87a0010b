package dev.stillpoint.properties.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.ReadRules;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * [E1, S4, V4] GetItem hands back only an item that carries the key it was read under: a backend's stored
 * text that names another key (edited by hand, or filed under the wrong key) is Internal, naming the table,
 * the key asked for and the attribute at fault; anything else comes back as stored.
 */
class ReadRulesTest {

    private static final TableDescription TABLE = new CreateTableRequest("acct", "Orders", KeySchema.composite("pk", "sk"),
            List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N)),
            List.of(), List.of(), Optional.empty()).describe("id", "arn", Instant.EPOCH).withStatus(TableStatus.ACTIVE);

    private static final Key ASKED = Key.of(new AttributeValue.S("a"), new AttributeValue.N("170"));

    private static Item stored(Object... pairs) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            attributes.put((String) pairs[i], (AttributeValue) pairs[i + 1]);
        }
        return Item.of(attributes);
    }

    @Test
    void anItemCarryingTheKeyComesBackAsStored() {
        Item item = stored("pk", new AttributeValue.S("a"), "sk", new AttributeValue.N("170"),
                "v", new AttributeValue.N("1e999"));
        assertThat(ReadRules.forGet(TABLE, ASKED, item)).as("[S4] the rest of the item as stored, even an invalid N")
                .isSameAs(item);
        Item sameNumber = stored("pk", new AttributeValue.S("a"), "sk", new AttributeValue.N("170000E-3"));
        assertThat(ReadRules.forGet(TABLE, ASKED, sameNumber)).as("[V4] 170 and 170000E-3 are one key")
                .isSameAs(sameNumber);
    }

    @Test
    void e1_anItemOfAnotherPartitionKeyIsInternalNamingBothKeys() {
        Item other = stored("pk", new AttributeValue.S("zz"), "sk", new AttributeValue.N("170"));
        assertThatThrownBy(() -> ReadRules.forGet(TABLE, ASKED, other))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL);
                    assertThat(e.getMessage()).contains("table 'Orders'", "'pk' = S 'a', 'sk' = N '170'",
                            "key attribute 'pk' is S 'zz'", "not returned");
                });
    }

    @Test
    void e1_anItemOfAnotherSortKeyOrTypeOrWithoutOneIsInternal() {
        assertThatThrownBy(() -> ReadRules.forGet(TABLE, ASKED,
                stored("pk", new AttributeValue.S("a"), "sk", new AttributeValue.N("171"))))
                .hasMessageContaining("key attribute 'sk' is N '171'");
        assertThatThrownBy(() -> ReadRules.forGet(TABLE, ASKED,
                stored("pk", new AttributeValue.S("a"), "sk", new AttributeValue.S("170"))))
                .as("the declared type is part of the key").hasMessageContaining("key attribute 'sk' is S '170'");
        assertThatThrownBy(() -> ReadRules.forGet(TABLE, ASKED, stored("pk", new AttributeValue.S("a"))))
                .isInstanceOfSatisfying(StorageException.class,
                        e -> assertThat(e.reason()).isEqualTo(ErrorReason.INTERNAL))
                .hasMessageContaining("key attribute 'sk' is missing");
        assertThatThrownBy(() -> ReadRules.forGet(TABLE, ASKED,
                stored("pk", new AttributeValue.S("a"), "sk", new AttributeValue.N("1e999"))))
                .as("an invalid N under a key is no number, so not the key's").hasMessageContaining("key attribute 'sk' is N '1e999'");
    }

    @Test
    void aBinaryKeyIsShownInBase64() {
        TableDescription binary = new CreateTableRequest("acct", "Blobs", KeySchema.hashOnly("b"),
                List.of(new AttributeDefinition("b", ScalarType.B)), List.of(), List.of(), Optional.empty())
                .describe("id", "arn", Instant.EPOCH).withStatus(TableStatus.ACTIVE);
        assertThatThrownBy(() -> ReadRules.forGet(binary, Key.of(new AttributeValue.B(new byte[] {1, 2})),
                stored("b", new AttributeValue.B(new byte[] {3}))))
                .hasMessageContaining("'b' = B 'AQI='").hasMessageContaining("key attribute 'b' is B 'Aw=='");
    }
}
