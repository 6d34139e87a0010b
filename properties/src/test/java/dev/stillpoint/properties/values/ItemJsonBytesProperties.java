package dev.stillpoint.properties.values;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * [S4] Decoding an item from the UTF-8 bytes a driver hands over: the same item, or the same
 * refusal, as decoding the text those bytes spell ({@code new String(bytes, UTF_8)}), malformed
 * UTF-8 included; and the parts that make the byte path fast (the word-at-a-time string scan, the
 * shared table of recent names) never change what is read.
 */
class ItemJsonBytesProperties {

    // Bytes and their text read alike: an item's UTF-8 is the item, and any bytes at all, damaged
    // items and malformed UTF-8 included, give the item or the refusal (same message, same position)
    // that their text gives.
    @Property
    void s4_bytes_read_as_the_text_they_spell(@ForAll("itemBytes") byte[] utf8) throws Exception {
        String text = new String(utf8, StandardCharsets.UTF_8);
        Object fromText = outcome(() -> ItemJson.decode(text));
        Object fromBytes = outcome(() -> ItemJson.decodeUtf8(utf8));
        assertThat(fromBytes).isEqualTo(fromText);
    }

    // An item without unpaired surrogates (which UTF-8 cannot hold) comes back from its UTF-8 bytes.
    @Property
    void s4_items_round_trip_through_utf8(@ForAll("items") Item item) {
        byte[] utf8 = ItemJson.encode(item).getBytes(StandardCharsets.UTF_8);
        // An unpaired surrogate has no UTF-8: such items are the text round trip's (ItemJsonProperties).
        Assume.that(new String(utf8, StandardCharsets.UTF_8).equals(ItemJson.encode(item)));
        assertThat(ItemJson.decodeUtf8(utf8)).isEqualTo(item);
    }

    // Strings are scanned eight bytes at a time: a quote, backslash (escape), control character or
    // multi-byte character at every offset of every word, in strings of every length up to five
    // words, reads back exactly, as an attribute name and as a value.
    @Example
    void s4_every_special_byte_at_every_offset_reads_back() {
        String[] specials = {"\"", "\\", "\n", "\u0001", "\u001f", "\u007f", "é", "€", "\ud83d\ude00", "\ud800"};
        for (String special : specials) {
            for (int length = 1; length <= 40; length++) {
                for (int at = 0; at < length; at++) {
                    String value = "x".repeat(at) + special + "y".repeat(length - at - 1);
                    Map<String, AttributeValue> attributes = new LinkedHashMap<>();
                    attributes.put(value, AttributeValue.s(value));
                    Item item = Item.of(attributes);
                    String text = ItemJson.encode(item);
                    assertThat(ItemJson.decode(text)).as(text).isEqualTo(item);
                    if (!special.equals("\ud800")) {
                        assertThat(ItemJson.decodeUtf8(text.getBytes(StandardCharsets.UTF_8))).as(text).isEqualTo(item);
                    }
                }
            }
        }
    }

    // A raw control character (NUL and U+001F included) is refused wherever it stands in a string, the
    // word scan included and after an escape too, at its position in characters (a multi-byte
    // character before it counts once), from text and from bytes.
    @Example
    void s4_raw_control_characters_refused_at_every_offset_in_characters() {
        for (char control : new char[] {'\u0000', '\u0001', '\u001f'}) {
            String named = "unescaped control character " + String.format("U+%04x", (int) control);
            for (String before : new String[] {"", "\\n"}) {
                for (int length = 1; length <= 40; length++) {
                    for (int at = 0; at < length; at++) {
                        String text = "{\"é\":{\"S\":\"" + before + "x".repeat(at) + control + "y".repeat(length - at - 1) + "\"}}";
                        String position = "position " + (11 + before.length() + at) + " ";
                        Expect.validation(() -> ItemJson.decode(text), named, position);
                        Expect.validation(() -> ItemJson.decodeUtf8(text.getBytes(StandardCharsets.UTF_8)), named, position);
                    }
                }
            }
        }
        Expect.validation(() -> ItemJson.decodeUtf8("{\"€\":{\"S\":1}}".getBytes(StandardCharsets.UTF_8)),
                "position 10 ('1}}')", "expected a string for the S value");
        // An invalid escape names the character after the backslash, whole, multi-byte or not.
        Expect.validation(() -> ItemJson.decodeUtf8("{\"a\":{\"S\":\"x\\éy\"}}".getBytes(StandardCharsets.UTF_8)),
                "invalid escape '\\é'", "position 12 ");
        Expect.validation(() -> ItemJson.decode("{\"a\":{\"S\":\"x\\€y\"}}"), "invalid escape '\\€'");
    }

    // An unpaired surrogate in a given String is read as itself inside a string, and refused outside one.
    @Example
    void s4_unpaired_surrogates_in_a_string_read_as_themselves() {
        assertThat(ItemJson.decode("{\"a\ud800\":{\"S\":\"?\udc00?\"}}"))
                .isEqualTo(Item.of(Map.of("a\ud800", AttributeValue.s("?\udc00?"))));
        assertThat(ItemJson.decode("{\"a\":{\"S\":\"\\ud83d\ude00\"}}"))
                .isEqualTo(Item.of(Map.of("a", AttributeValue.s("\ud83d\ude00"))));
        Expect.validation(() -> ItemJson.decode("{\"a\":\ud800{\"S\":\"x\"}}"), "expected '{' to open a typed value");
        // Outside a string, too, the refusal shows the surrogate as its escape (not the '?' of UTF-8's encoder).
        Expect.validation(() -> ItemJson.decode("\ud800{}"), "position 0 ('\\ud800{}')", "expected '{' to open the item");
        Expect.validation(() -> ItemJson.decodeUtf8(null), "null");
    }

    // Names come from a table shared by every thread: thousands of distinct names, far more than it
    // has slots, decoded on four threads at once, each read as written.
    @Example
    void s4_recent_names_never_mix_names_up() throws Exception {
        List<String> texts = new ArrayList<>();
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            Map<String, AttributeValue> attributes = new LinkedHashMap<>();
            for (int k = 0; k < 5; k++) {
                attributes.put("n" + (i * 7 + k * 1031) % 9973, AttributeValue.n(Integer.toString(k)));
            }
            Item item = Item.of(attributes);
            items.add(item);
            texts.add(ItemJson.encode(item));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int offset = t * 1000;
                Callable<Integer> reader = () -> {
                    start.await();
                    int read = 0;
                    for (int round = 0; round < 5; round++) {
                        for (int i = 0; i < texts.size(); i++) {
                            int k = (i + offset) % texts.size();
                            assertThat(ItemJson.decodeUtf8(texts.get(k).getBytes(StandardCharsets.UTF_8))).isEqualTo(items.get(k));
                            read++;
                        }
                    }
                    return read;
                };
                done.add(pool.submit(reader));
            }
            start.countDown();
            for (Future<Integer> f : done) {
                assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(5 * texts.size());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Provide
    Arbitrary<Item> items() {
        return Arbitraries.maps(ItemJsonProperties.strings(), ItemJsonProperties.values(2)).ofMaxSize(6).map(Item::of);
    }

    /** Items' UTF-8, cut, extended or with a byte replaced (often inside a multi-byte character), and junk. */
    @Provide
    Arbitrary<byte[]> itemBytes() {
        Arbitrary<byte[]> encoded = items().map(item -> ItemJson.encode(item).getBytes(StandardCharsets.UTF_8));
        Arbitrary<Byte> damage = Arbitraries.of((byte) '"', (byte) '\\', (byte) '{', (byte) '}', (byte) ':', (byte) 0,
                (byte) 0x1f, (byte) 0x80, (byte) 0xbf, (byte) 0xc3, (byte) 0xe2, (byte) 0xed, (byte) 0xf0, (byte) 0xff);
        Arbitrary<byte[]> damaged = encoded.flatMap(bytes -> Arbitraries.integers().between(0, Math.max(0, bytes.length - 1))
                .flatMap(at -> damage.flatMap(b -> Arbitraries.of(0, 1, 2).map(how -> damage(bytes, at, b, how)))));
        Arbitrary<byte[]> junk = Arbitraries.bytes().array(byte[].class).ofMaxSize(40);
        return Arbitraries.frequencyOf(Tuple.of(2, encoded), Tuple.of(5, damaged), Tuple.of(1, junk));
    }

    private static byte[] damage(byte[] bytes, int at, byte b, int how) {
        if (bytes.length == 0) {
            return new byte[] {b};
        }
        return switch (how) {
            case 0 -> Arrays.copyOf(bytes, at); // cut
            case 1 -> {
                byte[] out = bytes.clone();
                out[at] = b; // replaced
                yield out;
            }
            default -> {
                byte[] out = new byte[bytes.length + 1];
                System.arraycopy(bytes, 0, out, 0, at);
                out[at] = b; // inserted
                System.arraycopy(bytes, at, out, at + 1, bytes.length - at);
                yield out;
            }
        };
    }

    /** The item read, or the refusal's class and message: what two readings are compared by. */
    private static Object outcome(Callable<Item> decode) throws Exception {
        try {
            return decode.call();
        } catch (StorageException e) {
            return e.reason() + ": " + e.getMessage();
        }
    }
}
