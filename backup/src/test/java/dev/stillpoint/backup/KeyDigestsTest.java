package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.KeySchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keys compared as DynamoDB compares them [V4], in memory and spilled to disk: {@code 170} and
 * {@code 170000E-3} are one number key; S and B values by their bytes; a key's type is part of it.
 */
class KeyDigestsTest {

    private static Item item(AttributeValue pk, AttributeValue sk) {
        return Item.of(Map.of("pk", pk, "sk", sk, "v", AttributeValue.s("payload")));
    }

    private static List<KeyDigests.Duplicate> run(KeyDigests keys, List<Item> items, long[][] collapsed) {
        for (int i = 0; i < items.size(); i++) {
            keys.add(items.get(i), KeyDigests.place(0, i + 1));
        }
        List<KeyDigests.Duplicate> found = new ArrayList<>();
        collapsed[0] = keys.collapsed(found::add);
        return found;
    }

    private static List<Item> corpus() {
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            items.add(item(AttributeValue.s("p" + (i % 7)), new AttributeValue.N(Integer.toString(i))));
        }
        items.add(item(AttributeValue.s("p" + (170 % 7)), new AttributeValue.N("170000E-3"))); // line 5001 = line 171
        items.add(item(AttributeValue.s("p3"), new AttributeValue.N("1.7E2")));                // another key: 170 is in p2
        items.add(item(AttributeValue.s("p2"), AttributeValue.s("170")));                      // S, not N: another key
        items.add(item(AttributeValue.b(new byte[] {1}), new AttributeValue.N("1")));
        items.add(item(AttributeValue.b(new byte[] {1}), new AttributeValue.N("0.1E1")));    // line 5005 = line 5004
        return items;
    }

    @Test
    void v4_numbersAreComparedByValueAndTypesApart_inMemory() {
        long[][] collapsed = new long[1][];
        try (KeyDigests keys = new KeyDigests(KeySchema.composite("pk", "sk"))) {
            List<KeyDigests.Duplicate> found = run(keys, corpus(), collapsed);
            assertThat(found).containsExactlyInAnyOrder(
                    new KeyDigests.Duplicate(KeyDigests.place(0, 171), KeyDigests.place(0, 5001)),
                    new KeyDigests.Duplicate(KeyDigests.place(0, 5004), KeyDigests.place(0, 5005)));
            assertThat(collapsed[0]).containsExactly(KeyDigests.place(0, 171), KeyDigests.place(0, 5004));
            assertThat(keys.count()).isEqualTo(5005);
        }
    }

    @Test
    void v4_theSameAnswerWhenSpilledToPartitionFiles_whichCloseRemoves() throws Exception {
        long[][] collapsed = new long[1][];
        Path spilled;
        try (KeyDigests keys = new KeyDigests(KeySchema.composite("pk", "sk"), 64)) {
            List<KeyDigests.Duplicate> found = run(keys, corpus(), collapsed);
            assertThat(found).containsExactlyInAnyOrder(
                    new KeyDigests.Duplicate(KeyDigests.place(0, 171), KeyDigests.place(0, 5001)),
                    new KeyDigests.Duplicate(KeyDigests.place(0, 5004), KeyDigests.place(0, 5005)));
            assertThat(collapsed[0]).containsExactly(KeyDigests.place(0, 171), KeyDigests.place(0, 5004));
            java.lang.reflect.Field f = KeyDigests.class.getDeclaredField("spillDir");
            f.setAccessible(true);
            spilled = (Path) f.get(keys);
            assertThat(spilled).as("past 64 entries the digests went to disk").isNotNull();
            assertThat(Files.isDirectory(spilled)).isTrue();
        }
        assertThat(spilled).as("close removes the partition files").doesNotExist();
    }

    @Test
    void v4_aKeyOnThreeLinesCollapsesTwoAndPairsEachWithTheOneBefore() {
        long[][] collapsed = new long[1][];
        List<Item> items = List.of(item(AttributeValue.s("a"), new AttributeValue.N("1")),
                item(AttributeValue.s("a"), new AttributeValue.N("1.0")),
                item(AttributeValue.s("b"), new AttributeValue.N("1")),
                item(AttributeValue.s("a"), new AttributeValue.N("10E-1")));
        try (KeyDigests keys = new KeyDigests(KeySchema.composite("pk", "sk"))) {
            List<KeyDigests.Duplicate> found = run(keys, items, collapsed);
            assertThat(found).containsExactly(new KeyDigests.Duplicate(KeyDigests.place(0, 1), KeyDigests.place(0, 2)),
                    new KeyDigests.Duplicate(KeyDigests.place(0, 2), KeyDigests.place(0, 4)));
            assertThat(collapsed[0]).containsExactly(KeyDigests.place(0, 1), KeyDigests.place(0, 2));
        }
        assertThat(KeyDigests.file(KeyDigests.place(3, 12))).isEqualTo(3);
        assertThat(KeyDigests.line(KeyDigests.place(3, 12))).isEqualTo(12);
    }
}
