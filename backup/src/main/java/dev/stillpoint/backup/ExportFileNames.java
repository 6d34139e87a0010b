package dev.stillpoint.backup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The names an export gives the files at the top of its directory, in either layout, full or incremental: an
 * export renames its finished files onto them, which would replace a file of the user's that carries one.
 * DynamoDB's data files are named by the export's own id, under {@code data/}, so no earlier file has their name.
 */
final class ExportFileNames {

    private static final Set<String> FIXED = Set.of(StillpointLayout.DATA_FILE, StillpointLayout.MANIFEST_FILE,
            ChangesExport.DATA_FILE, DynamoDbLayout.SUMMARY, DynamoDbLayout.FILES, DynamoDbLayout.SUMMARY_CHECKSUM,
            DynamoDbLayout.FILES_CHECKSUM);

    private ExportFileNames() {
    }

    /** Whether an export, of either layout, writes a file of this name (at the top or under {@code data/}). */
    static boolean isExportName(String name) {
        return atTheTop(name) || DynamoDbLayout.DATA_FILE_NAME.matcher(name).matches();
    }

    /** The first entry of {@code dir} (in name order) that bears a name an export writes at the top, if any. */
    static Optional<String> firstTaken(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).filter(ExportFileNames::atTheTop).sorted().findFirst();
        }
    }

    private static boolean atTheTop(String name) {
        return FIXED.contains(name) || StillpointLayout.SEGMENT_FILE_NAME.matcher(name).matches();
    }
}
