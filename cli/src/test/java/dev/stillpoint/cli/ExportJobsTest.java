package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.KeyOrder;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.itemjson.ItemJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code export -j N} and {@code restore -j N} [B3] on real databases (a SQLite file, the embedded PostgreSQL
 * in both layouts): the items of -j N are exactly those of -j 1 of the same table nobody writes to, each data
 * file in key order and listed in the manifest with its count and sha256; a restore of a -j 4 export at -j 4
 * holds the source's items; a bad count is refused naming it with nothing created.
 */
class ExportJobsTest {

    private static final int ITEMS = 240;
    private static final KeyOrder ORDER = KeyOrder.resolve(KeySchema.composite("pk", "sk"),
            List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N)))
            .ordered().orElseThrow();

    /** Table {@code things} (pk S, sk N, GSI by-cat) with {@link #ITEMS} items under 12 partition keys. */
    static void load(String... backend) {
        Cli.Run created = Cli.run(ExportBackendsTest.concat(List.of("create-table"), backend, "--table", "things",
                "--key", "pk:S,sk:N", "--gsi", "by-cat:cat:S"));
        assertThat(created.code()).as(created.err()).isZero();
        List<String> put = new ArrayList<>(List.of("put"));
        put.addAll(List.of(backend));
        put.addAll(List.of("--table", "things"));
        for (int i = 0; i < ITEMS; i++) {
            put.add("--item");
            put.add("{\"pk\":{\"S\":\"p" + (i % 12) + "\"},\"sk\":{\"N\":\"" + (i * 7 % 1000) + "." + i + "\"},"
                    + (i % 3 == 0 ? "\"cat\":{\"S\":\"c" + (i % 5) + "\"}," : "") + "\"v\":{\"S\":\"item " + i + "\"}}");
        }
        Cli.Run run = Cli.run(put.toArray(String[]::new));
        assertThat(run.code()).as(run.err()).isZero();
    }

    private static Cli.Run export(String[] backend, Path out, String... more) {
        return Cli.run(ExportBackendsTest.concat(List.of("export"), backend,
                Stream.concat(Stream.of("--table", "things", "--out", out.toString()), Stream.of(more))
                        .toArray(String[]::new)));
    }

    /** [B3] -j 4 against -j 1 of one table nobody writes to, then a restore -j 4 of the -j 4 export. */
    private static void jobsHoldTheItemsOfOneJob(String label, String[] source, String[] target) throws Exception {
        load(source);
        Path dir = Cli.scratch("jobs-" + label);
        Path one = dir.resolve("j1");
        Path four = dir.resolve("j4");
        Cli.Run r1 = export(source, one);
        assertThat(r1.code()).as(r1.err()).isZero();
        Cli.Run r4 = export(source, four, "-j", "4");
        assertThat(r4.code()).as(r4.err()).isZero();
        assertThat(r4.out()).contains("exported " + ITEMS + " items").contains("4 data files (one per segment)");

        List<String> single = Files.readAllLines(one.resolve("items.jsonl"));
        assertThat(single).hasSize(ITEMS);
        JsonNode m = new ObjectMapper().readTree(four.resolve("manifest.json").toFile());
        assertThat(m.path("format").asText()).isEqualTo("stillpoint-export/2");
        assertThat(m.has("dataFile")).isFalse();
        assertThat(m.path("dataFiles")).hasSize(4);
        assertThat(m.path("itemCount").asLong()).isEqualTo(ITEMS);
        List<String> all = new ArrayList<>();
        long counted = 0;
        long bytes = 0;
        for (int i = 0; i < 4; i++) {
            JsonNode f = m.path("dataFiles").get(i);
            Path file = four.resolve(f.path("file").asText());
            assertThat(f.path("file").asText()).isEqualTo(String.format("items-%05d.jsonl", i));
            List<String> lines = Files.readAllLines(file);
            assertThat(f.path("itemCount").asLong()).as("file %d's count", i).isEqualTo(lines.size());
            assertThat(f.path("sha256").asText()).as("file %d's sha256", i).isEqualTo(sha256(file));
            assertThat(f.path("bytes").asLong()).isEqualTo(Files.size(file));
            List<Item> items = lines.stream().map(ItemJson::decode).toList();
            assertThat(items).as("file %d in key order", i).isSortedAccordingTo(ORDER.itemComparator());
            counted += lines.size();
            bytes += Files.size(file);
            all.addAll(lines);
        }
        assertThat(counted).isEqualTo(m.path("itemCount").asLong());
        assertThat(bytes).isEqualTo(m.path("bytes").asLong());
        assertThat(m.path("dataFiles").get(0).path("itemCount").asLong()).as("the key space is cut, not given to one file")
                .isLessThan(ITEMS);
        // The files, lowest key range first, concatenated: exactly the single stream, line for line.
        assertThat(all).containsExactlyElementsOf(single);

        Cli.Run restored = Cli.run(ExportBackendsTest.concat(List.of("restore", "--from", four.toString()), target,
                "--table", "copy", "-j", "4"));
        assertThat(restored.code()).as(restored.err()).isZero();
        assertThat(restored.out()).contains("restored " + ITEMS + " items").contains("4 data files");
        Path back = dir.resolve("back");
        Cli.Run again = Cli.run(ExportBackendsTest.concat(List.of("export"), target, "--table", "copy", "--out",
                back.toString()));
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(Files.readAllLines(back.resolve("items.jsonl"))).containsExactlyElementsOf(single);
    }

    @Test
    void sqliteJobsHoldTheItemsOfOneJob() throws Exception {
        Path dir = Cli.scratch("jobs-sqlite-db");
        jobsHoldTheItemsOfOneJob("sqlite", new String[] {"--sqlite", dir.resolve("t.db").toString()},
                new String[] {"--sqlite", dir.resolve("target.db").toString()});
    }

    @Test
    void postgresSharedLayoutJobsHoldTheItemsOfOneJob() throws Exception {
        jobsHoldTheItemsOfOneJob("pg-shared", new String[] {"--postgres", CliPg.newDatabase("jobs", "pw")},
                new String[] {"--postgres", CliPg.newDatabase("jobs_target", "pw")});
    }

    @Test
    void postgresSeparateLayoutJobsHoldTheItemsOfOneJob() throws Exception {
        jobsHoldTheItemsOfOneJob("pg-separate", new String[] {"--postgres", CliPg.newDatabase("jobs_cat", "pw"),
                "--data-url", CliPg.newDatabase("jobs_data", "pw")},
                new String[] {"--postgres", CliPg.newDatabase("jobs_tcat", "pw"), "--data-url",
                        CliPg.newDatabase("jobs_tdata", "pw")});
    }

    static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
