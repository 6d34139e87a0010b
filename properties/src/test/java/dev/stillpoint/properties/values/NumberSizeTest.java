package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.ItemLimits;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * [V1] What a number costs against the 400 KB item limit, from outside evidence: the 23 literals the Parity Suite
 * measured against DynamoDB (eu-west-2, 2026-08-18), each byte-exact by an item of 409,600 bytes accepted and one
 * of 409,601 refused (nubo-db/dynamodb-conformance, {@code src/item-size.ts}, {@code CAPTURED_NUMBER_BYTES}, and
 * {@code tests/tier3/limits/numberByteSize.test.ts}). The developer guide's "1 byte per two significant digits plus
 * 1 byte" is an approximation (CapacityUnitCalculations.html): it misses the byte of a negative number, the digits
 * that straddle the decimal point and zero's single byte; Stillpoint counted by it until this test.
 */
class NumberSizeTest {

    /** Literal and its bytes, as measured. */
    private static final Map<String, Integer> MEASURED = measured();

    private static Map<String, Integer> measured() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("0", 1);
        m.put("1", 2);
        m.put("12", 2);
        m.put("123", 3);
        m.put("1234", 3);
        m.put("12345678901234567890123456789012345678", 20);
        m.put("0042", 2);
        m.put("100", 2);
        m.put("1010", 3);
        m.put("0.0000001", 2);
        m.put("1E125", 2);
        m.put("1E-100", 2);
        m.put("1.5", 3);
        m.put("15", 2);
        m.put("1.2", 3);
        m.put("1.200", 3);
        m.put("1.234", 4);
        m.put("3.14159", 5);
        m.put("123456", 4);
        m.put("100.5", 4);
        m.put("0.15", 2);
        m.put("-42", 3);
        m.put("-0", 1);
        return m;
    }

    private static final KeySchema KEY = KeySchema.hashOnly("pk");
    private static final List<AttributeDefinition> DEFINITIONS = List.of(new AttributeDefinition("pk", ScalarType.S));

    @Test
    void v1_eachMeasuredLiteralCostsWhatDynamoDbCharged() {
        Map<String, Long> counted = new LinkedHashMap<>();
        MEASURED.keySet().forEach(literal -> counted.put(literal, Item.sizeOf(new AttributeValue.N(literal))));
        Map<String, Long> expected = new LinkedHashMap<>();
        MEASURED.forEach((literal, bytes) -> expected.put(literal, (long) bytes));
        assertThat(counted).as("[V1] each literal's bytes, as measured at DynamoDB's 400 KB gate").isEqualTo(expected);
    }

    @Test
    void v1_aNumberCostsTheSameInEveryNotationOfItsValue() {
        // The cost is of the value, so it does not move when a number is stored in its canonical form [D3].
        for (String[] same : new String[][] {{"1.5E2", "150"}, {"-314.159E-2", "-3.14159"}, {"0.00", "-0"},
                {"+100.50", "100.5"}, {"1E125", "1" + "0".repeat(125)}, {"12.0E-8", "0.00000012"}}) {
            assertThat(Item.sizeOf(new AttributeValue.N(same[0])))
                    .as("[V1] %s costs what %s costs", same[0], same[1])
                    .isEqualTo(Item.sizeOf(new AttributeValue.N(same[1])));
        }
    }

    @Test
    void v1_theGateCountsANegativeDecimalAsMeasured() {
        // pk 'k' (3 bytes), n = -3.14159 (1 + 6: sign, integer and fraction halves), the padding's name 'p' (1):
        // 409,600 accepted, one byte more refused, as the suite's numberByteSize test asks of DynamoDB.
        int padding = ItemLimits.MAX_ITEM_BYTES - 3 - (1 + 6) - 1;
        Item atLimit = item(padding);
        assertThat(atLimit.sizeInBytes()).as("[V1] the item built to the limit").isEqualTo(ItemLimits.MAX_ITEM_BYTES);
        assertThat(ItemLimits.validateForPut(atLimit, KEY, DEFINITIONS)).isEqualTo(atLimit);
        Expect.validation(() -> ItemLimits.validateForPut(item(padding + 1), KEY, DEFINITIONS), "409601", "409600");
    }

    private static Item item(int padding) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("pk", new AttributeValue.S("k"));
        attributes.put("n", new AttributeValue.N("-3.14159"));
        attributes.put("p", new AttributeValue.S("x".repeat(padding)));
        return Item.of(attributes);
    }
}
