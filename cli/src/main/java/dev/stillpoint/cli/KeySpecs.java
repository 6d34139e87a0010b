package dev.stillpoint.cli;

import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** The key notations of {@code create-table}: {@code pk:S[,sk:N]} and {@code name:attr:TYPE[:rangeattr:TYPE]}. */
final class KeySpecs {

    /** A key schema with the definitions of its attributes. */
    record KeySpec(KeySchema schema, List<AttributeDefinition> definitions) {
    }

    /** A global secondary index as {@code --gsi} names it. */
    record GsiSpec(String name, KeySpec key) {
    }

    private KeySpecs() {
    }

    /** {@code pk:S} or {@code pk:S,sk:N}. */
    static final class KeyConverter implements ITypeConverter<KeySpec> {
        @Override
        public KeySpec convert(String value) {
            String[] parts = value.split(",", -1);
            if (parts.length < 1 || parts.length > 2) {
                throw new TypeConversionException("expected HASH:TYPE[,RANGE:TYPE], e.g. pk:S,sk:N; got '" + value + "'");
            }
            AttributeDefinition hash = attribute(parts[0], value);
            Optional<AttributeDefinition> range = parts.length == 2 ? Optional.of(attribute(parts[1], value)) : Optional.empty();
            return keySpec(hash, range, value);
        }
    }

    /** {@code name:attr:TYPE} or {@code name:attr:TYPE:rangeattr:TYPE}. */
    static final class GsiConverter implements ITypeConverter<GsiSpec> {
        @Override
        public GsiSpec convert(String value) {
            String[] parts = value.split(":", -1);
            if ((parts.length != 3 && parts.length != 5) || parts[0].isEmpty()) {
                throw new TypeConversionException("expected NAME:ATTR:TYPE[:RANGEATTR:TYPE], e.g. byCategory:category:S:rank:N;"
                        + " got '" + value + "'");
            }
            AttributeDefinition hash = attribute(parts[1] + ":" + parts[2], value);
            Optional<AttributeDefinition> range = parts.length == 5
                    ? Optional.of(attribute(parts[3] + ":" + parts[4], value)) : Optional.empty();
            return new GsiSpec(parts[0], keySpec(hash, range, value));
        }
    }

    private static KeySpec keySpec(AttributeDefinition hash, Optional<AttributeDefinition> range, String value) {
        if (range.isPresent() && range.get().name().equals(hash.name())) {
            throw new TypeConversionException("'" + value + "' uses '" + hash.name() + "' as both hash and range key");
        }
        KeySchema schema = new KeySchema(hash.name(), range.map(AttributeDefinition::name));
        return new KeySpec(schema, range.map(r -> List.of(hash, r)).orElse(List.of(hash)));
    }

    private static AttributeDefinition attribute(String text, String whole) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1 || text.indexOf(':') != colon) {
            throw new TypeConversionException("expected ATTR:TYPE with TYPE one of S, N, B in '" + whole + "'");
        }
        String name = text.substring(0, colon);
        String type = text.substring(colon + 1).toUpperCase(Locale.ROOT);
        try {
            return new AttributeDefinition(name, ScalarType.valueOf(type));
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("key type '" + text.substring(colon + 1) + "' in '" + whole
                    + "' is not one of S, N, B");
        }
    }
}
