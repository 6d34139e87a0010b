package dev.stillpoint.itemjson;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;

/** The type tags of DynamoDB JSON, as DynamoDB spells them. */
enum TypeTag {
    S, N, B, BOOL, NULL, L, M, SS, NS, BS;

    /** The tag as a field name, its JSON form computed once. */
    final SerializableString field = new SerializedString(name());

    /** The tag spelled {@code name}, or null for any other text (case matters). */
    static TypeTag of(String name) {
        return switch (name) {
            case "S" -> S;
            case "N" -> N;
            case "B" -> B;
            case "BOOL" -> BOOL;
            case "NULL" -> NULL;
            case "L" -> L;
            case "M" -> M;
            case "SS" -> SS;
            case "NS" -> NS;
            case "BS" -> BS;
            default -> null;
        };
    }
}
