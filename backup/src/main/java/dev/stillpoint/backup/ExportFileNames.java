package dev.stillpoint.backup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The names an export gives the files at the top of its directory, in either layout, full or incremental: an
 * export renames its finished files onto them, which would replace a file of the user's that carries one.
 * DynamoDB's data files are named by the export's own id, under {@code data/}, so no earlier file has their name.
 */
final class ExportFileNames {

    private static final Set<String> FIXED = Set.of(StillpointLayout.DATA_FILE, StillpointLayout.MANIFEST_FILE,
            ChangesExport.DATA_FILE, DynamoDbLayout.SUMMARY, DynamoDbLayout.FILES, "manifest-summary.checksum",
            "manifest-files.checksum");
    /** {@code export -j N}'s data files, {@link StillpointLayout#segmentFile}. */
    private static final Pattern SEGMENT = Pattern.compile("items-\\d{5}\\.jsonl");
    /** DynamoDB's layout's data files under {@code data/}: the export's id (time and random), then the file's number. */
    private static final Pattern DYNAMODB_DATA = Pattern.compile("\\d{14}-[0-9a-f]{8}-\\d{5}\\.json\\.gz");

    private ExportFileNames() {
    }

    /** Whether an export, of either layout, writes a file of this name (at the top or under {@code data/}). */
    static boolean isExportName(String name) {
        return FIXED.contains(name) || SEGMENT.matcher(name).matches() || DYNAMODB_DATA.matcher(name).matches();
    }

    /** The first entry of {@code dir} (in name order) that bears a name an export writes, if any. */
    static Optional<String> firstTaken(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString())
                    .filter(n -> FIXED.contains(n) || SEGMENT.matcher(n).matches()).sorted().findFirst();
        }
    }
}
