package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_DEPLOYMENT;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.generated.tables.records.SpDataOwnerRecord;
import dev.stillpoint.adapters.postgres.generated.tables.records.SpDeploymentRecord;
import dev.stillpoint.domain.error.StorageException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who owns what, recorded rather than inferred (O1, O2): the catalog records its layout and the
 * identity of its data database ({@code sp_deployment}); the data database records the catalog that
 * owns it and every relation that catalog created there ({@link DataRelations}). An opening checks
 * both before anything else runs, and refuses by name a layout other than the recorded one, a data
 * database another catalog owns, and a data database that is itself a catalog. The first read-write
 * opening of a catalog (new, or made before this record existed) writes the record, after checking
 * that every relation the catalog lists is in the data database it was given, so a catalog opened
 * with the wrong layout is refused before it is stamped with it.
 *
 * <p>Two databases cannot share a transaction, so the catalog's record is committed first and the
 * data database's owner row second: a crash between them leaves a catalog whose data database has no
 * owner yet, which the next opening claims once the same relation check passes.
 */
public final class Deployment {

    private static final Logger LOG = LoggerFactory.getLogger(Deployment.class);

    /** Advisory lock (catalog database) so openings starting together write the record once. */
    private static final long SETUP_LOCK = 0x73702d6f776e6572L;

    private static final String SHARED = "SHARED";
    private static final String SEPARATE = "SEPARATE";

    private final String catalogId;

    private Deployment(String catalogId) {
        this.catalogId = catalogId;
    }

    /** This catalog's identity: the owner the data database records, and the sweep's filter [L2, O1]. */
    public String catalogId() {
        return catalogId;
    }

    /**
     * Checks the opening against the record and, on a read-write opening, writes whatever of it is
     * missing. Refusals are VALIDATION naming the databases by address and how to open them.
     */
    public static Deployment establish(Pools pools, PostgresConfig config, boolean readOnly, long nowMillis) {
        Opening opening = new Opening(Pools.address(config.catalog().jdbcUrl()),
                config.data().map(d -> Pools.address(d.jdbcUrl())), readOnly, nowMillis);
        // A refusal may come from either database (a missing CREATE on the data database's schema, say): name both.
        String doing = "checking the deployment of the PostgreSQL catalog at " + opening.catalogAddress
                + opening.dataAddress.map(d -> " and its data database at " + d).orElse("");
        try (Connection catalog = pools.catalog()) {
            if (pools.shared()) {
                return opening.shared(catalog);
            }
            try (Connection data = pools.data()) {
                return opening.separate(catalog, data);
            }
        } catch (SQLException | RuntimeException e) {
            throw PgFailures.map(doing, e);
        }
    }

    /** One opening's addresses and mode; its methods are the two layouts' checks. */
    private record Opening(String catalogAddress, Optional<String> dataAddress, boolean readOnly, long now) {

        Deployment shared(Connection c) throws SQLException {
            DSLContext ctx = Transaction.dsl(c);
            TransactionStatements.begin(c);
            try {
                lock(c);
                Optional<SpDeploymentRecord> row = record(ctx);
                if (row.isPresent() && !row.get().getLayout().equals(SHARED)) {
                    throw StorageException.validation("the PostgreSQL catalog at " + catalogAddress + " was set up with"
                            + " the separate layout, its data in " + row.get().getDataAddress() + "; open it with that"
                            + " data database (--data-url, PostgresConfig.separate), not as a shared-layout catalog");
                }
                Optional<SpDataOwnerRecord> owner = DataRelations.owner(ctx);
                if (owner.isPresent() && !owner.get().getCatalogId().equals(row.map(SpDeploymentRecord::getCatalogId)
                        .orElse(""))) {
                    throw notACatalog(catalogAddress, owner.get());
                }
                if (row.isPresent() && owner.isPresent()) {
                    TransactionStatements.commit(c);
                    if (!readOnly) {
                        completeRegister(c, catalogAddress);
                    }
                    return new Deployment(row.get().getCatalogId());
                }
                requireListedRelations(ctx, ctx, catalogAddress);
                if (readOnly) {
                    TransactionStatements.commit(c);
                    return new Deployment(row.map(SpDeploymentRecord::getCatalogId).orElse(""));
                }
                String id = row.map(SpDeploymentRecord::getCatalogId).orElseGet(() -> UUID.randomUUID().toString());
                if (row.isEmpty()) {
                    insertRecord(ctx, id, SHARED, id, catalogAddress, now);
                }
                DataRelations.claim(ctx, id, id, catalogAddress, now);
                DataRelations.registerListed(ctx, ctx, id, now, catalogAddress);
                TransactionStatements.commit(c);
                return new Deployment(id);
            } finally {
                TransactionStatements.rollbackQuietly(c);
            }
        }

        Deployment separate(Connection c, Connection d) throws SQLException {
            String dataAt = dataAddress.orElseThrow();
            DSLContext catalog = Transaction.dsl(c);
            DSLContext data = Transaction.dsl(d);
            if (DataRelations.holdsCatalog(data)) {
                throw StorageException.validation("the data database at " + dataAt + " holds a Stillpoint catalog of"
                        + " its own (a shared-layout deployment, or the catalog itself): a data database belongs to"
                        + " one catalog and holds none; check --data-url (the catalog is at " + catalogAddress + ")");
            }
            TransactionStatements.begin(c);
            try {
                lock(c);
                Optional<SpDeploymentRecord> row = record(catalog);
                if (row.isPresent() && !row.get().getLayout().equals(SEPARATE)) {
                    throw StorageException.validation("the PostgreSQL catalog at " + catalogAddress + " was set up with"
                            + " the shared layout (catalog and data in one database); open it without a data database"
                            + " (no --data-url, PostgresConfig.shared), not with " + dataAt);
                }
                Optional<SpDataOwnerRecord> owner = DataRelations.owner(data);
                if (owner.isPresent()) {
                    String ownerId = owner.get().getCatalogId();
                    if (row.isEmpty() || !row.get().getCatalogId().equals(ownerId)
                            || !row.get().getDataId().equals(owner.get().getDataId())) {
                        throw StorageException.validation("the data database at " + dataAt + " belongs to another"
                                + " Stillpoint catalog (id " + ownerId + ", at " + owner.get().getCatalogAddress()
                                + "), not to the catalog at " + catalogAddress + (row.isEmpty() ? "" : " (id "
                                + row.get().getCatalogId() + ", its data in " + row.get().getDataAddress() + ")")
                                + "; check --data-url");
                    }
                    TransactionStatements.commit(c);
                    if (!readOnly) {
                        completeRegister(d, dataAt);
                    }
                    return new Deployment(ownerId);
                }
                requireListedRelations(catalog, data, dataAt);
                if (readOnly) {
                    TransactionStatements.commit(c);
                    return new Deployment(row.map(SpDeploymentRecord::getCatalogId).orElse(""));
                }
                String id = row.map(SpDeploymentRecord::getCatalogId).orElseGet(() -> UUID.randomUUID().toString());
                String dataId = row.map(SpDeploymentRecord::getDataId).orElseGet(() -> UUID.randomUUID().toString());
                if (row.isEmpty()) {
                    insertRecord(catalog, id, SEPARATE, dataId, dataAt, now);
                }
                // The catalog's record first (see the class comment), then the data database's owner row.
                TransactionStatements.commit(c);
                claimData(d, id, dataId, catalog);
                return new Deployment(id);
            } finally {
                TransactionStatements.rollbackQuietly(c);
            }
        }

        private void lock(Connection c) throws SQLException {
            if (!readOnly) {
                TransactionStatements.exec(c, "SELECT pg_advisory_xact_lock(" + SETUP_LOCK + ")");
            }
        }

        /**
         * Adds the record of completed restores ({@code sp_data_restores}) to a data database set up before it existed.
         * Best effort: a login that may not create relations, or a database set read-only, opens as before, only
         * without that protection against a copy of the catalog (logged), which a later opening adds.
         */
        private static void completeRegister(Connection d, String dataAt) {
            try {
                if (DataRestores.recordExists(Transaction.dsl(d))) {
                    return;
                }
                TransactionStatements.begin(d);
                try {
                    TransactionStatements.exec(d, "SELECT pg_advisory_xact_lock(" + SETUP_LOCK + ")");
                    DataRelations.createRegister(Transaction.dsl(d));
                    TransactionStatements.commit(d);
                } finally {
                    TransactionStatements.rollbackQuietly(d);
                }
            } catch (SQLException | RuntimeException e) {
                LOG.warn("the data database at {} has no record of completed restores and this opening could not add it"
                        + " ({}); a copy of the catalog made during a restore is not told the restore finished",
                        dataAt, PgFailures.describe(e));
            }
        }

        private void claimData(Connection d, String id, String dataId, DSLContext catalog) throws SQLException {
            DSLContext data = Transaction.dsl(d);
            TransactionStatements.begin(d);
            try {
                TransactionStatements.exec(d, "SELECT pg_advisory_xact_lock(" + SETUP_LOCK + ")");
                Optional<SpDataOwnerRecord> owner = DataRelations.owner(data);
                if (owner.isPresent() && !owner.get().getCatalogId().equals(id)) {
                    throw StorageException.validation("the data database at " + dataAddress.orElseThrow()
                            + " was claimed by another Stillpoint catalog (id " + owner.get().getCatalogId()
                            + ") while this one was being set up");
                }
                DataRelations.claim(data, id, dataId, catalogAddress, now);
                DataRelations.registerListed(catalog, data, id, now, dataAddress.orElseThrow());
                TransactionStatements.commit(d);
            } finally {
                TransactionStatements.rollbackQuietly(d);
            }
        }

        private void requireListedRelations(DSLContext catalog, DSLContext data, String dataAt) {
            List<String[]> missing = DataRelations.missingBaseRelations(catalog, data);
            if (!missing.isEmpty()) {
                String[] first = missing.get(0);
                throw StorageException.validation("the PostgreSQL catalog at " + catalogAddress + " lists table '"
                        + first[0] + "' (account " + first[1] + ") whose data relation " + first[2] + " is not in "
                        + dataAt + (missing.size() > 1 ? " (nor are " + (missing.size() - 1) + " more)" : "")
                        + ": this opening's layout or data database is not the one the catalog was made with"
                        + " (a separate-layout catalog needs its --data-url); nothing was changed");
            }
        }
    }

    /**
     * Refuses to open as a catalog a database that is another catalog's data database (it has an owner
     * row and no catalog of its own), before any migration writes to it [O1, O2].
     */
    public static void requireNotADataDatabase(Connection c, String address) {
        DSLContext ctx = Transaction.dsl(c);
        if (!DataRelations.holdsCatalog(ctx)) {
            DataRelations.owner(ctx).ifPresent(owner -> {
                throw notACatalog(address, owner);
            });
        }
    }

    /**
     * Refuses to make a catalog in a schema that already holds relations under its catalog's names but no
     * version table, so not a Stillpoint catalog (another application's, found from outside: the first
     * migration failed with "relation sp_tables already exists", unnamed and INTERNAL). Asked before the first
     * migration only, while the schema has no version table. Nothing is written.
     */
    public static void requireCatalogNamesFree(Connection c, String address) throws SQLException {
        List<String> taken = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT current_schema(), c.relname"
                + " FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relname LIKE 'sp\\_%'"
                + " AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') ORDER BY c.relname")) {
            String schema = null;
            while (rs.next()) {
                schema = rs.getString(1);
                taken.add(rs.getString(2));
            }
            if (!taken.isEmpty()) {
                throw StorageException.validation("the PostgreSQL database at " + address + " holds " + taken
                        + " in schema " + schema + ", names Stillpoint's catalog takes, but no sp_schema_version: they"
                        + " are not a Stillpoint catalog, and Stillpoint left the database as it was; give it a database"
                        + " of its own, or a schema (currentSchema=... in the URL)");
            }
        }
    }

    private static StorageException notACatalog(String address, SpDataOwnerRecord owner) {
        return StorageException.validation("the PostgreSQL database at " + address + " is the data database of"
                + " the Stillpoint catalog at " + owner.getCatalogAddress() + " (id " + owner.getCatalogId() + "), not"
                + " a catalog; open that catalog with this database as its data database (--data-url,"
                + " PostgresConfig.separate)");
    }

    private static Optional<SpDeploymentRecord> record(DSLContext ctx) {
        return ctx.selectFrom(SP_DEPLOYMENT).fetchOptional();
    }

    private static void insertRecord(DSLContext ctx, String id, String layout, String dataId, String dataAt,
                                     long now) {
        ctx.insertInto(SP_DEPLOYMENT, SP_DEPLOYMENT.CATALOG_ID, SP_DEPLOYMENT.LAYOUT, SP_DEPLOYMENT.DATA_ID,
                        SP_DEPLOYMENT.DATA_ADDRESS, SP_DEPLOYMENT.CREATED_AT)
                .values(id, layout, dataId, dataAt, now)
                .execute();
    }

}
