package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Restore's input through the real CLI on real files [V4, V5, issue 27 findings 8-11]: two lines with one
 * key (as DynamoDB compares keys), the exit codes' one meaning each (integrity 11, content 12), {@code --key}
 * checked by names and types and printed as a user writes it, and a directory that holds an export (or two).
 */
class RestoreInputTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A {@code pk:S,sk:N} table of three items, exported in {@code format} (ours when empty) into {@code dir/export}. */
    private static Path exported(Path dir, String... format) {
        Path db = dir.resolve("src.db");
        Cli.Run created = Cli.run("create-table", "--sqlite", db.toString(), "--table", "ttt", "--key", "pk:S,sk:N");
        assertThat(created.code()).as(created.err()).isZero();
        Cli.Run put = Cli.run("put", "--sqlite", db.toString(), "--table", "ttt",
                "--item", "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"170\"},\"v\":{\"S\":\"first\"}}",
                "--item", "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},\"v\":{\"S\":\"second\"}}",
                "--item", "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"3\"},\"v\":{\"S\":\"third\"}}");
        assertThat(put.code()).as(put.err()).isZero();
        Path out = dir.resolve("export");
        List<String> args = new ArrayList<>(List.of("export", "--sqlite", db.toString(), "--table", "ttt", "--out", out.toString()));
        args.addAll(List.of(format));
        Cli.Run run = Cli.run(args.toArray(String[]::new));
        assertThat(run.code()).as(run.err()).isZero();
        return out;
    }

    private static Cli.Run restore(Path from, Path target, String... more) {
        List<String> args = new ArrayList<>(List.of("restore", "--from", from.toString(), "--sqlite", target.toString(),
                "--table", "copy"));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    private static List<String> exportedLines(Path db, Path dir) throws Exception {
        Cli.Run run = Cli.run("export", "--sqlite", db.toString(), "--table", "copy", "--out", dir.toString());
        assertThat(run.code()).as(run.err()).isZero();
        return Files.readAllLines(dir.resolve("items.jsonl"));
    }

    // Finding 8 [V4]: sk 170 and 170000E-3 are one number, so one key. The input is refused by the check
    // naming both lines, nothing created; with --duplicates last-wins the last line wins, the summary says how
    // many lines collapsed, and the count reported is the count the table holds. Before: "restored 3 items"
    // into a table holding 2.
    @Test
    void twoLinesWithOneKeyAreRefusedNamingBothOrTheLastWinsWhenAsked() throws Exception {
        Path dir = Cli.scratch("restore-duplicates");
        Path ddb = exported(dir, "--format", "dynamodb");
        Path data = dataFile(ddb);
        List<String> lines = lines(data);
        int at = indexOf(lines, "\"second\"");
        int first = indexOf(lines, "\"first\"");
        List<String> changed = new ArrayList<>(lines);
        changed.set(at, lines.get(at).replace("{\"N\":\"2\"}", "{\"N\":\"170000E-3\"}"));
        assertThat(changed.get(at)).contains("170000E-3");
        rewrite(ddb, data, gzip(String.join("\n", changed) + "\n"), changed.size());
        Path target = dir.resolve("target.db");

        Cli.Run refused = restore(ddb, target, "--key", "pk:S,sk:N");
        assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCodes.INPUT_ITEM).isEqualTo(12);
        int earlier = Math.min(at, first) + 1;
        int later = Math.max(at, first) + 1;
        assertThat(refused.err()).contains(data.getFileName() + " line " + earlier + " and line " + later + " hold one key")
                .contains("--duplicates last-wins");
        assertThat(target).as("nothing created, not even the file").doesNotExist();

        Cli.Run lastWins = restore(ddb, target, "--key", "pk:S,sk:N", "--duplicates", "last-wins");
        assertThat(lastWins.code()).as(lastWins.err()).isZero();
        assertThat(lastWins.out()).contains("restored 2 items").contains("1 line(s) collapsed");
        List<String> held = exportedLines(target, dir.resolve("again"));
        assertThat(held).as("the table holds the count reported").hasSize(2);
        String winner = later - 1 == at ? "second" : "first";
        String loser = later - 1 == at ? "first" : "second";
        assertThat(String.join("\n", held)).contains("\"" + winner + "\"").doesNotContain("\"" + loser + "\"");

        Cli.Run bad = restore(ddb, dir.resolve("other.db"), "--key", "pk:S,sk:N", "--duplicates", "first-wins");
        assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
    }

    // Finding 8 on our layout: the same check, the same refusal, on items.jsonl (sha256 rewritten to match).
    @Test
    void twoLinesWithOneKeyInOurLayoutAreRefusedToo() throws Exception {
        Path dir = Cli.scratch("restore-duplicates-ours");
        Path ours = exported(dir);
        Path items = ours.resolve("items.jsonl");
        List<String> lines = Files.readAllLines(items);
        int at = indexOf(lines, "\"third\"");
        List<String> changed = new ArrayList<>(lines);
        changed.set(at, lines.get(at).replace("\"pk\":{\"S\":\"b\"}", "\"pk\":{\"S\":\"a\"}")
                .replace("{\"N\":\"3\"}", "{\"N\":\"1.7E2\"}"));
        rewriteOurs(ours, String.join("\n", changed) + "\n");

        Cli.Run refused = restore(ours, dir.resolve("target.db"));
        assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCodes.INPUT_ITEM);
        assertThat(refused.err()).contains("line " + (at + 1) + " hold one key");
        assertThat(dir.resolve("target.db")).doesNotExist();
    }

    // Finding 9 [V5]: --key is compared by names AND types, and the refusal prints keys as a user writes
    // them. Before: pk:N,sk:N over a pk:S,sk:N export exited 0; a name mismatch printed KeySchema[...].
    @Test
    void aKeyGivenWithOtherTypesOrNamesIsRefusedAndPrintedAsWritten() throws Exception {
        Path dir = Cli.scratch("restore-key-types");
        Path ours = exported(dir);
        Path target = dir.resolve("target.db");

        Cli.Run types = restore(ours, target, "--key", "pk:N,sk:N");
        assertThat(types.code()).as(types.err()).isEqualTo(ExitCodes.INPUT_FORMAT);
        assertThat(types.err()).contains("the export's key (pk:S,sk:N) is not the key given with --key (pk:N,sk:N)")
                .doesNotContain("KeySchema").doesNotContain("Optional");
        Cli.Run names = restore(ours, target, "--key", "pk:S,other:N");
        assertThat(names.code()).as(names.err()).isEqualTo(ExitCodes.INPUT_FORMAT);
        assertThat(names.err()).contains("(pk:S,sk:N) is not the key given with --key (pk:S,other:N)")
                .doesNotContain("KeySchema").doesNotContain("Optional");
        assertThat(target).doesNotExist();

        Cli.Run same = restore(ours, target, "--key", "pk:S,sk:N");
        assertThat(same.code()).as(same.err()).isZero();
    }

    // [R6, V5] found from outside (manifests edited by hand): a definition whose attribute or projection type
    // is not DynamoDB's is refused as the input's format naming the field, the value and the values it takes,
    // not in Java's words ("No enum constant dev.stillpoint.domain.key.ScalarType.BOOL"); nothing is created.
    @Test
    void aDefinitionTypeThatIsNotDynamoDbsIsRefusedNamingTheValuesItTakes() throws Exception {
        Path dir = Cli.scratch("restore-definition-types");
        Path ours = exported(dir);
        Path target = dir.resolve("target.db");
        ObjectNode m = (ObjectNode) JSON.readTree(ours.resolve("manifest.json").toFile());

        ObjectNode attribute = (ObjectNode) m.path("table").path("AttributeDefinitions").get(0);
        attribute.put("AttributeType", "BOOL");
        Files.writeString(ours.resolve("manifest.json"), JSON.writeValueAsString(m) + "\n");
        Cli.Run type = restore(ours, target);
        assertThat(type.code()).as(type.err()).isEqualTo(ExitCodes.INPUT_FORMAT);
        assertThat(type.err()).contains("AttributeType 'BOOL' is not one of S, N, B").doesNotContain("enum");
        attribute.put("AttributeType", "S");

        ((ObjectNode) m.path("table")).set("GlobalSecondaryIndexes", JSON.readTree("[{\"IndexName\":\"byV\","
                + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
                + "\"Projection\":{\"ProjectionType\":\"SOME\"}}]"));
        Files.writeString(ours.resolve("manifest.json"), JSON.writeValueAsString(m) + "\n");
        Cli.Run projection = restore(ours, target);
        assertThat(projection.code()).as(projection.err()).isEqualTo(ExitCodes.INPUT_FORMAT);
        assertThat(projection.err()).contains("ProjectionType 'SOME' is not one of ALL, KEYS_ONLY, INCLUDE")
                .doesNotContain("enum");
        assertThat(target).as("nothing created").doesNotExist();
    }

    // Finding 10 [V5]: an items file cut mid-line is the input's integrity (11), as a cut at a line boundary
    // is; before, the partial last line made it content (12).
    @Test
    void anItemsFileCutMidLineIsIntegrity() throws Exception {
        Path dir = Cli.scratch("restore-cut");
        Path ours = exported(dir);
        Path items = ours.resolve("items.jsonl");
        byte[] all = Files.readAllBytes(items);
        Files.write(items, Arrays.copyOf(all, all.length - 7));

        Cli.Run cut = restore(ours, dir.resolve("target.db"));
        assertThat(cut.code()).as(cut.err()).isEqualTo(ExitCodes.INPUT_INTEGRITY).isEqualTo(11);
        assertThat(cut.err()).contains("sha256").contains("ends mid-line (line 3 has no line break), so it was cut short");

        List<String> lines = Files.readAllLines(items);
        Files.writeString(items, lines.get(0) + "\n" + lines.get(1) + "\n");
        Cli.Run boundary = restore(ours, dir.resolve("target.db"));
        assertThat(boundary.code()).as(boundary.err()).isEqualTo(ExitCodes.INPUT_INTEGRITY);
        assertThat(dir.resolve("target.db")).doesNotExist();
    }

    // Finding 10 [V5]: a DynamoDB data file whose bytes no longer match their MD5 is integrity (11) even when
    // a damaged line comes first; one whose gzip stream is damaged (its trailer's CRC) is integrity too, the
    // MD5 rewritten to match so only the gzip is wrong. Before: both exited 12 on the damaged line.
    @Test
    void aDataFileWithDamagedMd5OrGzipIsIntegrityWhateverItsLinesLookLike() throws Exception {
        Path dir = Cli.scratch("restore-damage");
        Path ddb = exported(dir, "--format", "dynamodb");
        Path data = dataFile(ddb);
        byte[] good = Files.readAllBytes(data);
        List<String> lines = lines(data);
        String damaged = lines.get(0) + "\n{\"Item\":[1]}\n" + lines.get(2) + "\n";
        Path target = dir.resolve("target.db");

        Files.write(data, gzip(damaged)); // the manifest still holds the original MD5
        Cli.Run md5 = restore(ddb, target, "--key", "pk:S,sk:N");
        assertThat(md5.code()).as(md5.err()).isEqualTo(ExitCodes.INPUT_INTEGRITY);
        assertThat(md5.err()).contains("MD5");

        byte[] badTrailer = gzip(damaged);
        badTrailer[badTrailer.length - 8] ^= 0x5a; // the CRC-32 of the gzip trailer
        rewrite(ddb, data, badTrailer, 3);
        Cli.Run gz = restore(ddb, target, "--key", "pk:S,sk:N");
        assertThat(gz.code()).as(gz.err()).isEqualTo(ExitCodes.INPUT_INTEGRITY);
        assertThat(gz.err()).contains("damaged or truncated");

        rewrite(ddb, data, gzip(damaged), 3); // intact and counted: now the line is the input's content
        Cli.Run content = restore(ddb, target, "--key", "pk:S,sk:N");
        assertThat(content.code()).as(content.err()).isEqualTo(ExitCodes.INPUT_ITEM);
        assertThat(content.err()).contains("line 2");
        assertThat(target).doesNotExist();
        rewrite(ddb, data, good, 3);
    }

    // Finding 11: an export into a directory that holds an export (either layout) is refused by name, the
    // directory untouched; a restore from a directory holding both manifests is refused rather than picking
    // one. Before: both manifests were left side by side and restore read ours.
    @Test
    void aDirectoryHoldingAnExportIsNeitherWrittenOverNorReadAmbiguously() throws Exception {
        Path dir = Cli.scratch("export-over");
        Path ours = exported(dir);
        Path db = dir.resolve("src.db");
        List<String> before = listing(ours);

        Cli.Run ddbOverOurs = Cli.run("export", "--sqlite", db.toString(), "--table", "ttt", "--out", ours.toString(),
                "--format", "dynamodb");
        assertThat(ddbOverOurs.code()).as(ddbOverOurs.err()).isEqualTo(ExitCodes.OUTPUT);
        assertThat(ddbOverOurs.err()).contains("already holds an export (manifest.json)");
        assertThat(listing(ours)).isEqualTo(before);

        Path ddb = dir.resolve("ddb");
        Cli.Run first = Cli.run("export", "--sqlite", db.toString(), "--table", "ttt", "--out", ddb.toString(), "--format", "dynamodb");
        assertThat(first.code()).as(first.err()).isZero();
        Cli.Run oursOverDdb = Cli.run("export", "--sqlite", db.toString(), "--table", "ttt", "--out", ddb.toString());
        assertThat(oursOverDdb.code()).as(oursOverDdb.err()).isEqualTo(ExitCodes.OUTPUT);
        assertThat(oursOverDdb.err()).contains("already holds an export (manifest-summary.json)");
        assertThat(ddb.resolve("manifest.json")).doesNotExist();

        // Both manifests in one directory, put there by hand: refused, naming both.
        try (Stream<Path> files = Files.list(ddb)) {
            for (Path f : files.toList()) {
                if (Files.isRegularFile(f)) {
                    Files.copy(f, ours.resolve(f.getFileName()));
                }
            }
        }
        Path target = dir.resolve("target.db");
        Cli.Run both = restore(ours, target, "--key", "pk:S,sk:N");
        assertThat(both.code()).as(both.err()).isEqualTo(ExitCodes.INPUT_FORMAT);
        assertThat(both.err()).contains("holds two exports, ours (manifest.json) and DynamoDB's (manifest-summary.json)");
        assertThat(target).doesNotExist();
    }

    private static List<String> listing(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        throw new AssertionError("no line holds " + text + ": " + lines);
    }

    private static Path dataFile(Path ddb) throws Exception {
        JsonNode fileLine = JSON.readTree(Files.readAllLines(ddb.resolve("manifest-files.json")).get(0));
        return ddb.resolve(fileLine.path("dataFileS3Key").asText());
    }

    private static List<String> lines(Path gz) throws Exception {
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(gz))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    /** Our layout's items.jsonl replaced by {@code text}, the manifest's sha256 and bytes rewritten to match. */
    private static void rewriteOurs(Path ours, String text) throws Exception {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Files.write(ours.resolve("items.jsonl"), bytes);
        ObjectNode m = (ObjectNode) JSON.readTree(ours.resolve("manifest.json").toFile());
        m.put("sha256", HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
        m.put("bytes", bytes.length);
        Files.writeString(ours.resolve("manifest.json"), JSON.writeValueAsString(m) + "\n");
    }

    /** Puts {@code bytes} in {@code data} and rewrites manifest-files.json (and its checksum) to match, with {@code count}. */
    private static void rewrite(Path export, Path data, byte[] bytes, long count) throws Exception {
        Files.write(data, bytes);
        byte[] md5 = MessageDigest.getInstance("MD5").digest(bytes);
        ObjectNode line = (ObjectNode) JSON.readTree(Files.readAllLines(export.resolve("manifest-files.json")).get(0));
        line.put("itemCount", count).put("md5Checksum", Base64.getEncoder().encodeToString(md5))
                .put("etag", HexFormat.of().formatHex(md5));
        byte[] files = (line + "\n").getBytes(StandardCharsets.UTF_8);
        Files.write(export.resolve("manifest-files.json"), files);
        Files.writeString(export.resolve("manifest-files.checksum"),
                HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(files)));
    }

    private static byte[] gzip(String text) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }
}
