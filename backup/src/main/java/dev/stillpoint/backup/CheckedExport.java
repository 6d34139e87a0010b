package dev.stillpoint.backup;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.CreateTableRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An export directory {@link ExportReader#check} has read in full and found sound [E3]: every checksum,
 * count and line. It can then be read again, item by item, for loading ({@link #load}); that second
 * reading checks everything again, so a file changed in between fails the load instead of loading
 * something unchecked.
 */
public final class CheckedExport {
    private final ExportFormat format;
    private final Path dir;
    private final long itemCount;
    private final Optional<JsonNode> table;
    private final Optional<String> sourceTableArn;
    private final ExportKey key;
    private final ExportReader.Scan scan;

    CheckedExport(ExportFormat format, Path dir, long itemCount, Optional<JsonNode> table,
                  Optional<String> sourceTableArn, ExportKey key, ExportReader.Scan scan) {
        this.format = format;
        this.dir = dir;
        this.itemCount = itemCount;
        this.table = table;
        this.sourceTableArn = sourceTableArn;
        this.key = key;
        this.scan = scan;
    }

    /** @return the layout found */
    public ExportFormat format() {
        return format;
    }

    /** @return the directory read */
    public Path dir() {
        return dir;
    }

    /** @return the items the export holds (the manifest's count, which every file agreed with) */
    public long itemCount() {
        return itemCount;
    }

    /** @return the ARN of the exported table, when the export names one */
    public Optional<String> sourceTableArn() {
        return sourceTableArn;
    }

    /** @return the key every item was checked against */
    public ExportKey key() {
        return key;
    }

    /**
     * The CreateTable request of a new table for this export [E4]: the exported definition (key schema,
     * attribute definitions, GSIs, LSIs, stream specification) for our layout; the checked key alone for
     * DynamoDB's, which carries no definition.
     *
     * @param accountId the new table's account
     * @param tableName the new table's name
     * @return the request
     */
    public CreateTableRequest definition(String accountId, String tableName) {
        if (table.isPresent()) {
            return DescriptionJson.definition(table.get(), accountId, tableName);
        }
        return new CreateTableRequest(accountId, tableName, key.schema(), key.definitions(), List.of(), List.of(),
                Optional.empty());
    }

    /**
     * Reads every item again, in file order, handing them over in batches of at most {@code batchSize}.
     *
     * @param batchSize items per batch, at least 1
     * @param batches   told each batch (a new list each time)
     * @throws BackupFailure when a file no longer matches what was checked
     */
    public void load(int batchSize, Consumer<List<Item>> batches) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1, got " + batchSize);
        }
        java.util.ArrayList<Item> batch = new java.util.ArrayList<>(batchSize);
        scan.run(item -> {
            batch.add(item);
            if (batch.size() == batchSize) {
                batches.accept(List.copyOf(batch));
                batch.clear();
            }
        });
        if (!batch.isEmpty()) {
            batches.accept(List.copyOf(batch));
        }
    }
}
