package dev.stillpoint.backup;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.stillpoint.domain.request.AttributeNames;

/**
 * Jackson's factories for text that holds DynamoDB JSON items (export lines, data files, change files), read with
 * limits no lower than DynamoDB's. Jackson refuses a name over 50,000 characters by default, while an attribute
 * name may be 65,535 bytes of UTF-8
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html: "at least
 * one character long and less than 64 KB"): an item PutItem took and an export wrote could not be restored.
 */
final class ItemJsonReading {

    /**
     * The longest name read, in characters of JSON text: every name DynamoDB accepts, even with each of its bytes
     * a six-character escape; the domain's rules refuse the ones over 65,535 bytes, naming them.
     */
    static final int MAX_NAME_CHARS = 6 * AttributeNames.MAX_NAME_BYTES;

    private static final StreamReadConstraints CONSTRAINTS = StreamReadConstraints.builder()
            .maxNameLength(MAX_NAME_CHARS).build();

    private ItemJsonReading() {
    }

    /** A factory with DynamoDB's name length; repeated names are left to the caller's own check. */
    static JsonFactory factory() {
        return JsonFactory.builder().streamReadConstraints(CONSTRAINTS).build();
    }

    /** A factory with DynamoDB's name length that refuses a name repeated in one object. */
    static JsonFactory strictFactory() {
        return JsonFactory.builder().streamReadConstraints(CONSTRAINTS)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    }
}
