package dev.stillpoint.sqlcatalog;

import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;

/** What a database does its own way while {@link MigrationRunner} brings its catalog up to date. */
public interface MigrationDialect {

    /** jOOQ's dialect for the database. */
    SQLDialect sql();

    /** Whether {@code sp_schema_version} exists yet (version 1 creates it). */
    boolean versionTableExists(DSLContext ctx);

    /**
     * Begins one version's transaction on the statement's connection, holding the database's
     * migration lock, so two engines migrating together apply each version once.
     */
    void begin(Statement st) throws SQLException;

    /** Commits the version's transaction. */
    void commit(Statement st) throws SQLException;

    /** Rolls the version's transaction back. */
    void rollback(Statement st) throws SQLException;

    /** Leaves the connection in auto-commit mode after a version, committed or not. */
    void end(Statement st) throws SQLException;

    /** The value {@code sp_schema_version.applied_at} records, in the column's type. */
    Object appliedAt(Clock clock);

    /** A script's statements, split by the database's own lexical rules. */
    List<String> statements(String script);
}
