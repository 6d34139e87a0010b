package dev.stillpoint.adapters.sqlite.engine;

import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_TABLES;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.out.ControlPlaneStore;
import dev.stillpoint.ports.out.DropAttempt;
import dev.stillpoint.ports.out.DropResult;
import dev.stillpoint.ports.out.LockProbe;
import dev.stillpoint.ports.out.PendingTransition;
import dev.stillpoint.ports.out.RelationHold;
import dev.stillpoint.ports.out.TableDropPort;
import dev.stillpoint.ports.out.TableRecord;
import dev.stillpoint.ports.out.TimeSource;
import dev.stillpoint.sqlcatalog.RestoreRecords;
import dev.stillpoint.sqlcatalog.TableId;
import dev.stillpoint.sqlcatalog.TableInserts;
import dev.stillpoint.sqlcatalog.TableRows;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The SQLite catalog behind the control-plane ports. Every write runs in one IMMEDIATE transaction
 * on the writer connection and advances the {@link CommitSequence} before it commits. Under WAL a reader never blocks a DROP (it keeps its own snapshot), so
 * the lock probe always answers "free" and a DeleteTable below the 1 s delay drops at once [D5].
 */
public final class SqliteCatalog implements ControlPlaneStore, TableDropPort, LockProbe {

    private final Connections connections;
    private final TimeSource time;
    private final Optional<Duration> delayOverride;
    /** The writer's kept item-write statements; read and replaced only under the writer lock. */
    private WriteStatements statements;
    /**
     * jOOQ on the writer connection, made once with the statements (a JFR profile of bench/put.sh showed a
     * jOOQ configuration built for every write).
     */
    private DSLContext writerDsl;

    public SqliteCatalog(Connections connections, TimeSource time, Optional<Duration> delayOverride) {
        this.connections = connections;
        this.time = time;
        this.delayOverride = delayOverride;
    }

    static DSLContext dsl(Connection c) {
        return DSL.using(c, SQLDialect.SQLITE);
    }

    /** Runs {@code work} in one write transaction, rolled back on any failure. */
    <T> T write(String doing, Function<DSLContext, T> work) {
        return writeItems(doing, (ctx, kept) -> work.apply(ctx));
    }

    /** An item write's work: the writer's kept statements, and jOOQ for the rare catalog load. */
    interface ItemWork<T> {
        T run(DSLContext ctx, WriteStatements statements) throws SQLException;
    }

    /**
     * Runs {@code work} in one IMMEDIATE transaction, rolled back on any failure, with the writer's kept
     * statements (issue 13): the begin, the commit-sequence advance [L5] and the commit are prepared once.
     */
    <T> T writeItems(String doing, ItemWork<T> work) {
        try (Connections.Borrowed w = connections.write()) {
            Connection c = w.connection();
            WriteStatements kept = statementsOf(c);
            try {
                kept.begin();
                T result = work.run(writerDsl, kept);
                kept.advanceSequence();
                kept.commit();
                return result;
            } catch (SQLException e) {
                TransactionStatements.rollbackQuietly(c);
                forgetStatements();
                throw SqlFailures.map(doing, e);
            } catch (RuntimeException e) {
                TransactionStatements.rollbackQuietly(c);
                if (fromTheDriver(e)) {
                    forgetStatements();
                }
                throw SqlFailures.map(doing, e);
            }
        }
    }

    /**
     * Whether {@code e} came from the driver (an SQLException in its causes), not from a rule refusing the write.
     * sqlite-jdbc finalizes a statement whose step failed with any code but BUSY, LOCKED, CONSTRAINT or MISUSE
     * (SQLITE_FULL, an I/O error, a trigger's runtime error) while its {@code isClosed()} stays false, so a kept
     * statement would answer "statement is not executing" to every later write, after the disk had room again too.
     */
    private static boolean fromTheDriver(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException) {
                return true;
            }
        }
        return false;
    }

    /** Closes the writer's kept statements; the next write prepares them again. Called under the writer lock. */
    private void forgetStatements() {
        if (statements != null) {
            statements.close();
            statements = null;
        }
    }

    /** The kept statements of the writer connection (one for the engine's life); called under the writer lock. */
    private WriteStatements statementsOf(Connection writer) {
        if (statements == null) {
            statements = new WriteStatements(writer, WriteStatements.CAPACITY);
            writerDsl = dsl(writer);
        }
        return statements;
    }

    /** Runs {@code work} on a read connection in auto-commit mode (each statement its own snapshot). */
    <T> T read(String doing, Function<DSLContext, T> work) {
        try (Connections.Borrowed r = connections.read()) {
            try {
                return work.apply(dsl(r.connection()));
            } catch (RuntimeException e) {
                throw SqlFailures.map(doing, e);
            }
        }
    }

    /** Writes (or replaces) the table's restore record. */
    public void writeRestoreRecord(String tableId, RestoreSummary summary) {
        write("recording a restore", ctx -> {
            RestoreRecords.write(ctx, tableId, summary);
            return null;
        });
    }

    @Override
    public Duration controlPlaneDelay() {
        return delayOverride.orElseGet(() -> read("reading the control-plane delay", TableRows::controlPlaneDelay));
    }

    @Override
    public Optional<TableRecord> find(String accountId, String tableName) {
        return read("reading table '" + tableName + "'",
                ctx -> CatalogRows.load(ctx, accountId, tableName).map(l -> l.row().record()));
    }

    @Override
    public TableDescription insertCreating(CreateTableRequest request, Instant activateAt) {
        return write("creating table '" + request.tableName() + "'",
                ctx -> TableInserts.create(ctx, TableId.random(), request, time.now(), activateAt, CatalogRows.relations(ctx)));
    }

    @Override
    public TableDescription insertRestoring(CreateTableRequest request, RestoreSummary summary, Instant aliveUntil) {
        return write("restoring into table '" + request.tableName() + "'",
                ctx -> TableInserts.restore(ctx, TableId.random(), request, summary, time.now(), aliveUntil, CatalogRows.relations(ctx)));
    }

    @Override
    public boolean renewRestore(String accountId, String tableName, String tableId, Instant aliveUntil) {
        return write("renewing the restore of table '" + tableName + "'",
                ctx -> RestoreRecords.renew(ctx, accountId, tableName, tableId, aliveUntil));
    }

    @Override
    public boolean completeRestore(String accountId, String tableName, String tableId) {
        return write("completing the restore of table '" + tableName + "'",
                ctx -> RestoreRecords.complete(ctx, ctx, accountId, tableName, tableId, TableId.MAX_LENGTH));
    }

    @Override
    public boolean markActive(String accountId, String tableName) {
        return write("activating table '" + tableName + "'", ctx -> TableRows.markActive(ctx, accountId, tableName));
    }

    @Override
    public List<PendingTransition> pendingTransitions() {
        return read("listing pending transitions", TableRows::pendingTransitions);
    }

    @Override
    public List<RelationHold> holders(String accountId, String tableName) {
        find(accountId, tableName).orElseThrow(() -> StorageException.tableNotFound(tableName));
        return List.of();
    }

    @Override
    public DropAttempt beginDrop(String accountId, String tableName) {
        Connections.Borrowed w = connections.write();
        Connection c = w.connection();
        try {
            TransactionStatements.beginWrite(c);
            CatalogRows.Loaded loaded = CatalogRows.load(dsl(c), accountId, tableName)
                    .orElseThrow(() -> StorageException.tableNotFound(tableName));
            return new Attempt(w, loaded);
        } catch (SQLException e) {
            TransactionStatements.rollbackQuietly(c);
            w.close();
            throw SqlFailures.map("deleting table '" + tableName + "'", e);
        } catch (RuntimeException e) {
            TransactionStatements.rollbackQuietly(c);
            w.close();
            throw SqlFailures.map("deleting table '" + tableName + "'", e);
        }
    }

    /** One drop attempt: the writer connection in one IMMEDIATE transaction, a savepoint around the drops. */
    private final class Attempt implements DropAttempt {
        private final Connections.Borrowed writer;
        private final Connection c;
        private final CatalogRows.Loaded loaded;

        Attempt(Connections.Borrowed writer, CatalogRows.Loaded loaded) {
            this.writer = writer;
            this.c = writer.connection();
            this.loaded = loaded;
        }

        @Override
        public TableRecord record() {
            return loaded.row().record();
        }

        @Override
        public boolean probeHolders() {
            // Under WAL a reader keeps its snapshot of a dropped table; nothing can hold the drop up.
            return false;
        }

        @Override
        public DropResult dropRelations(Duration budget) {
            try {
                TransactionStatements.savepoint(c, "drops");
                for (dev.stillpoint.sqlcatalog.NamedRelation relation : loaded.relations()) {
                    relation.dropIfExists(dsl(c)).execute();
                }
                return DropResult.DROPPED;
            } catch (SQLException e) {
                StorageException mapped = SqlFailures.map("dropping", e);
                return mapped.reason() == dev.stillpoint.domain.error.ErrorReason.TRANSIENT
                        ? DropResult.lockWaitFailed(mapped.getMessage()) : DropResult.failed(mapped.getMessage());
            } catch (RuntimeException e) {
                return DropResult.failed(SqlFailures.map("dropping", e).getMessage());
            }
        }

        @Override
        public void rollBackDrops() {
            run(() -> TransactionStatements.rollbackTo(c, "drops"));
        }

        @Override
        public void markDeleting(TableState.Deleting deleting) {
            TableRows.setStatus(dsl(c), loaded.row().tableId(), TableStatus.DELETING, deleting.dueAt(), deleting.retry());
        }

        @Override
        public void removeCatalogRow() {
            dsl(c).deleteFrom(SP_TABLES).where(SP_TABLES.TABLE_ID.eq(loaded.row().tableId())).execute();
        }

        @Override
        public void commit() {
            CommitSequence.advance(dsl(c)); // [L5]
            run(() -> TransactionStatements.commit(c));
        }

        @Override
        public void close() {
            // Undoes an attempt that did not commit; after a commit it finds no transaction and is ignored.
            TransactionStatements.rollbackQuietly(c);
            writer.close();
        }

        private void run(SqlAction action) {
            try {
                action.run();
            } catch (SQLException e) {
                throw SqlFailures.map("deleting table '" + loaded.description().tableName() + "'", e);
            }
        }
    }

    @FunctionalInterface
    interface SqlAction {
        void run() throws SQLException;
    }
}
