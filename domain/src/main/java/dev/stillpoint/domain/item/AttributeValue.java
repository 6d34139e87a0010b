package dev.stillpoint.domain.item;

import dev.stillpoint.domain.error.StorageException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A DynamoDB attribute value: one of the ten wire types. Every variant is immutable and refuses
 * null parts; collections keep the caller's iteration order.
 */
public sealed interface AttributeValue
        permits AttributeValue.S, AttributeValue.N, AttributeValue.B, AttributeValue.Bool, AttributeValue.Null,
                AttributeValue.L, AttributeValue.M, AttributeValue.SS, AttributeValue.NS, AttributeValue.BS {

    /**
     * The DynamoDB type name: S, N, B, BOOL, NULL, L, M, SS, NS or BS.
     *
     * @return the type name
     */
    String typeName();

    /**
     * {@code value} for a message: its type and its text (B in base64), quoted and cut to 64 characters, each
     * control character written as its JSON escape, so a NUL or a line break in a key cannot cut or split the
     * message that names it.
     *
     * @param value the value to show
     * @return e.g. {@code S 'customer#1'}, {@code N '12.5'}
     */
    static String shown(AttributeValue value) {
        return Checks.show(value);
    }

    /**
     * A string value.
     *
     * @param value the string
     * @return the S value
     */
    static S s(String value) {
        return new S(value);
    }

    /**
     * A number value, validated and normalised [D3].
     *
     * @param input the number's text as the client gave it
     * @return the N value with the canonical text
     */
    static N n(String input) {
        return N.of(input);
    }

    /**
     * A binary value (the bytes are copied).
     *
     * @param bytes the bytes
     * @return the B value
     */
    static B b(byte[] bytes) {
        return new B(bytes);
    }

    /** A string. */
    record S(String value) implements AttributeValue {
        /**
         * Refuses a missing string.
         *
         * @param value the string
         */
        public S {
            Checks.requireNonNull(value, "S value");
        }

        @Override
        public String typeName() {
            return "S";
        }
    }

    /**
     * A number, holding its text as stored: {@link #of} gives the canonical text [D3]; the
     * constructor keeps any text, because an invalid number read back from storage is yielded raw [S4].
     */
    record N(String text) implements AttributeValue {
        /**
         * Refuses a missing text; any text is kept as given.
         *
         * @param text the number's text
         */
        public N {
            Checks.requireNonNull(text, "N text");
        }

        /**
         * A number from client input: validated and normalised, or a validation error naming the input.
         *
         * @param input the number's text as the client gave it
         * @return the N value with the canonical text
         */
        public static N of(String input) {
            return new N(DynamoNumber.normalise(input));
        }

        /**
         * A number read back from storage [S4]: normalised when valid, otherwise kept raw.
         *
         * @param text the number's text as stored
         * @return the N value, canonical when valid
         */
        public static N fromStored(String text) {
            Checks.requireNonNull(text, "N text");
            return new N(DynamoNumber.tryNormalise(text).orElse(text));
        }

        /**
         * Whether the text is a valid number (not necessarily canonical).
         *
         * @return true when the text is a valid number
         */
        public boolean isValid() {
            return DynamoNumber.isValid(text);
        }

        @Override
        public String typeName() {
            return "N";
        }
    }

    /** A binary value; compared, hashed and printed (base64) by content. */
    record B(byte[] bytes) implements AttributeValue {
        /**
         * Refuses missing bytes and copies them.
         *
         * @param bytes the bytes
         */
        public B {
            Checks.requireNonNull(bytes, "B bytes");
            bytes = bytes.clone();
        }

        /**
         * A copy of the bytes.
         *
         * @return a copy of the bytes
         */
        @Override
        public byte[] bytes() {
            return bytes.clone();
        }

        /**
         * The number of bytes, without copying.
         *
         * @return the length in bytes
         */
        public int length() {
            return bytes.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof B other && Arrays.equals(bytes, other.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "B[" + Base64.getEncoder().encodeToString(bytes) + "]";
        }

        @Override
        public String typeName() {
            return "B";
        }
    }

    /** A boolean. */
    record Bool(boolean value) implements AttributeValue {
        /** True. */
        public static final Bool TRUE = new Bool(true);
        /** False. */
        public static final Bool FALSE = new Bool(false);

        @Override
        public String typeName() {
            return "BOOL";
        }
    }

    /** The null value; every instance equals every other. */
    record Null() implements AttributeValue {
        /** The one instance callers need. */
        public static final Null INSTANCE = new Null();

        @Override
        public String typeName() {
            return "NULL";
        }
    }

    /** A list of values. */
    record L(List<AttributeValue> values) implements AttributeValue {
        /**
         * Refuses a missing list or a null element.
         *
         * @param values the elements, in order
         */
        public L {
            Checks.requireNonNull(values, "L values");
            for (int i = 0; i < values.size(); i++) {
                if (values.get(i) == null) {
                    throw StorageException.validation("L element " + i + " must not be null");
                }
            }
            values = List.copyOf(values);
        }

        @Override
        public String typeName() {
            return "L";
        }
    }

    /** A map from attribute names to values. */
    record M(Map<String, AttributeValue> values) implements AttributeValue {
        /**
         * Copies {@code values}, refusing a missing map, name or value.
         *
         * @param values the values by attribute name
         */
        public M {
            values = AttributeMap.copyOf(values, "M");
        }

        @Override
        public String typeName() {
            return "M";
        }
    }

    /** A string set. */
    record SS(Set<String> values) implements AttributeValue {
        /**
         * Copies {@code values}, refusing a missing set or member.
         *
         * @param values the member strings
         */
        public SS {
            values = SetMembers.copyOf(values, "SS");
        }

        @Override
        public String typeName() {
            return "SS";
        }
    }

    /** A number set, holding member texts as stored (see {@link N}). */
    record NS(Set<String> values) implements AttributeValue {
        /**
         * Copies {@code values}, refusing a missing set or member.
         *
         * @param values the member texts
         */
        public NS {
            values = SetMembers.copyOf(values, "NS");
        }

        @Override
        public String typeName() {
            return "NS";
        }
    }

    /**
     * A binary set. Members are copied in and out; equality and hash ignore member order, as a set's
     * should, and compare member contents.
     */
    record BS(List<byte[]> values) implements AttributeValue {
        /**
         * Copies {@code values} and each member, refusing a missing list or member.
         *
         * @param values the member byte arrays
         */
        public BS {
            Checks.requireNonNull(values, "BS values");
            List<byte[]> copy = new ArrayList<>(values.size());
            for (int i = 0; i < values.size(); i++) {
                byte[] member = values.get(i);
                if (member == null) {
                    throw StorageException.validation("BS member " + i + " must not be null");
                }
                copy.add(member.clone());
            }
            values = Collections.unmodifiableList(copy);
        }

        /**
         * Copies of the members.
         *
         * @return copies of the members
         */
        @Override
        public List<byte[]> values() {
            List<byte[]> copy = new ArrayList<>(values.size());
            for (byte[] member : values) {
                copy.add(member.clone());
            }
            return Collections.unmodifiableList(copy);
        }

        /**
         * The number of members.
         *
         * @return the number of members
         */
        public int size() {
            return values.size();
        }

        /**
         * The total byte length of the members, without copying.
         *
         * @return the sum of the members' lengths in bytes
         */
        public long totalLength() {
            long total = 0;
            for (byte[] member : values) {
                total += member.length;
            }
            return total;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BS other && sorted(values).equals(sorted(other.values));
        }

        @Override
        public int hashCode() {
            int hash = 0;
            for (byte[] member : values) {
                hash += Arrays.hashCode(member);
            }
            return hash;
        }

        @Override
        public String toString() {
            StringBuilder out = new StringBuilder("BS[");
            for (int i = 0; i < values.size(); i++) {
                out.append(i == 0 ? "" : ", ").append(Base64.getEncoder().encodeToString(values.get(i)));
            }
            return out.append(']').toString();
        }

        @Override
        public String typeName() {
            return "BS";
        }

        private static List<String> sorted(List<byte[]> members) {
            List<String> encoded = new ArrayList<>(members.size());
            for (byte[] member : members) {
                encoded.add(Base64.getEncoder().encodeToString(member));
            }
            Collections.sort(encoded);
            return encoded;
        }
    }
}
