package dev.stillpoint.properties.values;

import dev.stillpoint.domain.item.AttributeValue;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sources that may repeat a name, as the item-json parser's member stack hands them to the item's
 * constructors, and the JDK collections those constructors must behave like.
 */
final class RepeatingSources {
    private RepeatingSources() {
    }

    /** The entries in order, repeats included; {@code size()} says {@code reportedSize}. */
    static Map<String, AttributeValue> map(List<Map.Entry<String, AttributeValue>> entries, int reportedSize) {
        return new AbstractMap<>() {
            @Override
            public Set<Map.Entry<String, AttributeValue>> entrySet() {
                return new AbstractSet<>() {
                    @Override
                    public Iterator<Map.Entry<String, AttributeValue>> iterator() {
                        return entries.iterator();
                    }

                    @Override
                    public int size() {
                        return reportedSize;
                    }
                };
            }
        };
    }

    /** The members in order, repeats included; {@code size()} says {@code reportedSize}. */
    static Set<String> set(List<String> members, int reportedSize) {
        return new AbstractSet<>() {
            @Override
            public Iterator<String> iterator() {
                return members.iterator();
            }

            @Override
            public int size() {
                return reportedSize;
            }
        };
    }

    /** What {@code LinkedHashMap.put} of every entry in order makes: first position, last value. */
    static LinkedHashMap<String, AttributeValue> linkedMap(List<Map.Entry<String, AttributeValue>> entries) {
        LinkedHashMap<String, AttributeValue> map = new LinkedHashMap<>();
        entries.forEach(e -> map.put(e.getKey(), e.getValue()));
        return map;
    }

    /** Names that share a {@code String.hashCode} in pairs ("Aa" and "BB") and are absent from {@code present}. */
    static List<String> absentFrom(Set<String> present) {
        List<String> candidates = new java.util.ArrayList<>(List.of("", "Aa", "BB", "AaAa", "AaBB", "BBAa", "BBBB", "zz#"));
        present.stream().limit(20).forEach(name -> candidates.add(name + "#"));
        candidates.removeIf(present::contains);
        return candidates;
    }

    /** The set {@code LinkedHashSet.add} of every member in order makes. */
    static LinkedHashSet<String> linkedSet(List<String> members) {
        return new LinkedHashSet<>(members);
    }
}
