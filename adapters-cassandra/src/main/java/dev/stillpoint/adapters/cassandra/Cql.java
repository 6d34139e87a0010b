package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.ToLongFunction;

/**
 * Runs statements on the session: every failure comes out mapped into the closed set
 * ({@link DriverFailures}), prepared statements are cached (bounded), and every schema change waits
 * for schema agreement before it returns.
 */
final class Cql {

    private static final int PREPARED_CACHE = 2_000;
    /** Rows of a page of a read; {@link SizedRows} asks for fewer where the rows are large. */
    static final int PAGE_SIZE = 500;

    private final CqlSession session;
    private final Duration schemaTimeout;
    private final Map<String, PreparedStatement> prepared = new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            return size() > PREPARED_CACHE;
        }
    };

    Cql(CqlSession session, Duration schemaTimeout) {
        this.session = session;
        this.schemaTimeout = schemaTimeout;
    }

    CqlSession session() {
        return session;
    }

    /** Runs {@code cql} with {@code values} bound, prepared once. */
    ResultSet run(String doing, String cql, Object... values) {
        return execute(doing, bind(doing, cql, values));
    }

    /** Runs a read: idempotent (the driver may retry it), paged. */
    ResultSet read(String doing, String cql, Object... values) {
        return execute(doing, bind(doing, cql, values).setIdempotent(true).setPageSize(PAGE_SIZE));
    }

    /** Runs a read of rows carrying item text in {@code textColumn}: paged by bytes ({@link SizedRows}), idempotent. */
    SizedRows readSized(String doing, String textColumn, String cql, Object... values) {
        return readSized(doing, r -> {
            String text = r.getString(textColumn);
            return text == null ? 0 : text.length();
        }, cql, values);
    }

    /** Runs a read of rows whose size on the node {@code rowBytes} tells: paged by bytes ({@link SizedRows}), idempotent. */
    SizedRows readSized(String doing, ToLongFunction<Row> rowBytes, String cql, Object... values) {
        return new SizedRows(this, doing, bind(doing, cql, values).setIdempotent(true), rowBytes);
    }

    /**
     * A linearizable read (LOCAL_SERIAL): it completes any lightweight transaction in progress on the
     * partition first, so it says whether an uncertain one was applied.
     */
    ResultSet serialRead(String doing, String cql, Object... values) {
        return execute(doing, bind(doing, cql, values).setIdempotent(true)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_SERIAL));
    }

    /**
     * Runs {@code statements}, which may be applied in any order: as one logged batch (all applied
     * eventually, even if this client dies) when their values total at most {@code batchBytes},
     * otherwise concurrently, one by one (Cassandra refuses a batch over
     * {@code batch_size_fail_threshold}, 50 KiB by default). Waits for all; the first failure wins.
     */
    void runAll(String doing, List<BoundStatement> statements, long valueBytes, long batchBytes) {
        if (statements.isEmpty()) {
            return;
        }
        if (statements.size() == 1) {
            execute(doing, statements.get(0));
            return;
        }
        if (valueBytes <= batchBytes) {
            BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED);
            statements.forEach(batch::addStatement);
            execute(doing, batch.build());
            return;
        }
        List<CompletableFuture<AsyncResultSet>> pending = new ArrayList<>();
        for (BoundStatement statement : statements) {
            pending.add(session.executeAsync(statement).toCompletableFuture());
        }
        RuntimeException first = null;
        for (CompletableFuture<AsyncResultSet> f : pending) {
            try {
                f.join();
            } catch (RuntimeException e) {
                first = first == null ? DriverFailures.map(doing, e) : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    BoundStatement bind(String doing, String cql, Object... values) {
        return prepare(doing, cql).bind(values);
    }

    ResultSet execute(String doing, Statement<?> statement) {
        try {
            return session.execute(statement);
        } catch (RuntimeException e) {
            throw DriverFailures.map(doing, e);
        }
    }

    /**
     * A schema change: run with the schema timeout, then wait until every node agrees on the schema
     * (the driver waits up to the same timeout; this checks its answer and waits on if it gave up).
     */
    void ddl(String doing, String cql) {
        ResultSet rs = execute(doing, SimpleStatement.newInstance(cql).setTimeout(schemaTimeout));
        if (!rs.getExecutionInfo().isSchemaInAgreement()) {
            awaitSchemaAgreement(doing);
        }
    }

    private void awaitSchemaAgreement(String doing) {
        long deadline = System.nanoTime() + schemaTimeout.toNanos();
        while (true) {
            boolean agreed;
            try {
                agreed = session.checkSchemaAgreement();
            } catch (RuntimeException e) {
                throw DriverFailures.map(doing + " (checking schema agreement)", e);
            }
            if (agreed) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new StorageException(ErrorReason.TRANSIENT, doing + ": the cluster did not agree on the schema within "
                        + schemaTimeout.toMillis() + " ms");
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StorageException(ErrorReason.TRANSIENT, doing + ": interrupted while waiting for schema agreement");
            }
        }
    }

    private PreparedStatement prepare(String doing, String cql) {
        synchronized (prepared) {
            PreparedStatement p = prepared.get(cql);
            if (p != null) {
                return p;
            }
        }
        PreparedStatement p;
        try {
            p = session.prepare(cql);
        } catch (RuntimeException e) {
            throw DriverFailures.map(doing, e);
        }
        synchronized (prepared) {
            prepared.put(cql, p);
        }
        return p;
    }
}
