package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.ItemLimits;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A number PutItem refuses is answered with DynamoDB's words for the rule it breaks, then the attribute and the
 * value [R6]. The rules: "Numbers can have up to 38 digits of precision" and a magnitude from 1E-130 to
 * 9.9999999999999999999999999999999999999E+125, positive or negative (developer guide, "Supported data types
 * and naming rules", Number:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes.Number);
 * the wording as DynamoDB answers (recorded by dynalite's tests).
 */
class NumberRefusalMessagesTest {

    private static void refusedWith(String number, String dynamoWording) {
        Item item = Item.of(Map.of("pk", AttributeValue.s("a"), "v", AttributeValue.N.fromStored(number)));
        assertThatThrownBy(() -> ItemLimits.validateForPut(item, KeySchema.hashOnly("pk"),
                List.of(new AttributeDefinition("pk", ScalarType.S))))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    org.assertj.core.api.Assertions.assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                    org.assertj.core.api.Assertions.assertThat(e.getMessage()).as("[R6] the number %s", number)
                            .startsWith(dynamoWording).contains("attribute 'v'").contains(number);
                });
    }

    @Test
    void r6_eachBrokenNumberRuleIsAnsweredInDynamoDbsWords() {
        refusedWith("1E+126", "Number overflow. Attempting to store a number with magnitude larger than supported range");
        refusedWith("-1E+126", "Number overflow. Attempting to store a number with magnitude larger than supported range");
        refusedWith("1E-131", "Number underflow. Attempting to store a number with magnitude smaller than supported range");
        refusedWith("1" + "2".repeat(38), "Attempting to store more than 38 significant digits in a Number");
        refusedWith("12abc", "A value provided cannot be converted into a number");
    }

    /**
     * A refused value is shown with its control characters escaped [R6]: found from outside, a hand-edited
     * incremental export whose number held a NUL printed that NUL raw in the CLI's error line.
     */
    @Test
    void r6_aRefusedValuesControlCharactersAreShownEscaped() {
        Item item = Item.of(Map.of("pk", AttributeValue.s("a"), "v", AttributeValue.N.fromStored("1\u0000\n2\u2028")));
        assertThatThrownBy(() -> ItemLimits.validateForPut(item, KeySchema.hashOnly("pk"),
                List.of(new AttributeDefinition("pk", ScalarType.S))))
                .isInstanceOfSatisfying(StorageException.class, e -> org.assertj.core.api.Assertions.assertThat(e.getMessage())
                        .contains("'1\\u0000\\u000A2\\u2028'")
                        .doesNotContain("\u0000").doesNotContain("\n").doesNotContain("\u2028"));
    }
}
