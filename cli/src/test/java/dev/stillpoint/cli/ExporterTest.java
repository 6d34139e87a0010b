package dev.stillpoint.cli;

import dev.stillpoint.backup.ExportListener;
import dev.stillpoint.backup.ExportResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.SnapshotEngine;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The exporter against a scripted engine: it never decodes, it closes the stream, and a failure leaves nothing. */
class ExporterTest {

    private static final TableDescription TABLE = new CreateTableRequest("000000000000", "scripted",
            KeySchema.hashOnly("pk"), List.of(new AttributeDefinition("pk", ScalarType.S)), List.of(), List.of(),
            Optional.empty()).describe("t-1", "arn:scripted", Instant.EPOCH).withStatus(TableStatus.ACTIVE);

    /** Yields {@code count} items whose {@code item()} throws, then (optionally) fails. */
    private static final class Scripted implements ItemStream {
        final long count;
        final boolean failAtEnd;
        long corruptAt = -1;
        long yielded;
        boolean closed;

        Scripted(long count, boolean failAtEnd) {
            this.count = count;
            this.failAtEnd = failAtEnd;
        }

        @Override
        public boolean hasNext() {
            if (yielded == count && failAtEnd) {
                closed = true;
                throw new StorageException(ErrorReason.SNAPSHOT_EXPIRED, "the snapshot expired after " + count + " items");
            }
            return yielded < count;
        }

        @Override
        public StoredItem next() {
            String json = ++yielded == corruptAt ? "{\"pk\":{\"S\":\"k\"},\"pad\":{\"Q\":\"x\"}}"
                    : "{\"pk\":{\"S\":\"k" + yielded + "\"},\"pad\":{\"S\":\"" + "x".repeat(200) + "\"}}";
            return new StoredItem() {
                @Override
                public String json() {
                    return json;
                }

                @Override
                public Item item() {
                    throw new AssertionError("the export path decoded an item");
                }
            };
        }

        @Override
        public void close() {
            closed = true;
        }

        @Override
        public boolean isReleased() {
            return closed;
        }
    }

    private static SnapshotEngine engine(Scripted stream) {
        return (account, table, storedKeys) -> new TableSnapshot(TABLE, new SnapshotInfo("scripted", "m-1"), false, stream);
    }

    @Test
    void itemsPassThroughUndecodedAndTheStreamIsClosed() throws Exception {
        Path out = Exporter.prepareOutput(Cli.scratch("exporter").resolve("out"));
        Scripted stream = new Scripted(50_000, false);

        ExportResult r = Exporter.export(engine(stream), "000000000000", "scripted", out, ExportListener.NONE);

        assertThat(r.items()).isEqualTo(50_000);
        assertThat(r.keyOrdered()).isFalse();
        assertThat(stream.closed).isTrue();
        try (Stream<String> lines = Files.lines(out.resolve("items.jsonl"))) {
            assertThat(lines.count()).isEqualTo(50_000);
        }
        assertThat(Files.readString(out.resolve("manifest.json"))).contains("\"keyOrdered\" : false")
                .contains("\"kind\" : \"scripted\"").contains("\"marker\" : \"m-1\"");
    }

    @Test
    void aStreamThatFailsLeavesNoFileBehind() throws Exception {
        Path out = Exporter.prepareOutput(Cli.scratch("exporter-fails").resolve("out"));
        Scripted stream = new Scripted(10_000, true);

        assertThatThrownBy(() -> Exporter.export(engine(stream), "000000000000", "scripted", out, ExportListener.NONE))
                .isInstanceOf(StorageException.class).hasMessageContaining("expired");

        assertThat(stream.closed).isTrue();
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void e1_anItemFailingTheCheckOnTheWritingThreadStopsTheReadingAndLeavesNoFileBehind() throws Exception {
        Path out = Exporter.prepareOutput(Cli.scratch("exporter-corrupt").resolve("out"));
        Scripted stream = new Scripted(200_000, false);
        stream.corruptAt = 30_000;

        assertThatThrownBy(() -> Exporter.export(engine(stream), "000000000000", "scripted", out, ExportListener.NONE))
                .isInstanceOf(CliFailure.class)
                .hasMessageStartingWith("item 30000 (line 30000 of items.jsonl)")
                .hasMessageContaining("unknown type tag 'Q'")
                .satisfies(e -> assertThat(((CliFailure) e).exitCode()).isEqualTo(ExitCodes.CORRUPT_ITEM));

        assertThat(stream.closed).as("the snapshot is released").isTrue();
        assertThat(stream.yielded).as("reading stopped within the hand-off's few batches of the failure")
                .isLessThan(40_000);
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files).isEmpty();
        }
    }
}
