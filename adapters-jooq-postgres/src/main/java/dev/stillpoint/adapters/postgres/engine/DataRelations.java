package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.adapters.postgres.generated.Tables.SP_DATA_OWNER;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_DATA_RELATIONS;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_INDEXES;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_TABLES;
import static dev.stillpoint.adapters.postgres.generated.Tables.SP_VECTOR_INDEXES;

import dev.stillpoint.adapters.postgres.generated.tables.records.SpDataOwnerRecord;
import dev.stillpoint.sqlcatalog.SqlScript;
import dev.stillpoint.adapters.postgres.storage.DataRelation;
import dev.stillpoint.domain.error.StorageException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data database's register of ownership (O1): its owner row and the relations its catalog made
 * there, written in the same transaction as each CREATE TABLE and DROP TABLE, so the orphan sweep
 * [L2] can tell this catalog's relations from anyone else's by record rather than by name.
 */
final class DataRelations {

    private static final Logger LOG = LoggerFactory.getLogger(DataRelations.class);

    private static final String SCRIPT = "/dev/stillpoint/adapters/postgres/data/ownership.sql";

    private static final String RELATIONS_HERE = "SELECT c.relname FROM pg_class c JOIN pg_namespace n"
            + " ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')"
            + " AND c.relname LIKE 'd\\_%'";

    private DataRelations() {
    }

    /** Whether {@code data} holds a Stillpoint catalog (a shared-layout deployment's, or a catalog database). */
    static boolean holdsCatalog(DSLContext data) {
        return exists(data, "sp_tables") || exists(data, "sp_schema_version");
    }

    /** The owner row of {@code data}; empty while no catalog has claimed it. */
    static Optional<SpDataOwnerRecord> owner(DSLContext data) {
        return exists(data, SP_DATA_OWNER.getName()) ? data.selectFrom(SP_DATA_OWNER).fetchOptional() : Optional.empty();
    }

    /** Creates the register (when missing) and records catalog {@code catalogId} as the owner of {@code data}. */
    static void claim(DSLContext data, String catalogId, String dataId, String catalogAddress, long now) {
        createRegister(data);
        data.insertInto(SP_DATA_OWNER, SP_DATA_OWNER.DATA_ID, SP_DATA_OWNER.CATALOG_ID, SP_DATA_OWNER.CATALOG_ADDRESS,
                        SP_DATA_OWNER.CREATED_AT)
                .values(dataId, catalogId, catalogAddress, now)
                .onConflictDoNothing()
                .execute();
    }

    /** Creates whatever part of the register {@code data} lacks (all of it, or a part added after it was set up). */
    static void createRegister(DSLContext data) {
        for (String statement : SqlScript.statements(script(), SqlScript.Lexis.POSTGRES)) {
            data.execute(statement);
        }
    }

    /**
     * Registers, as catalog {@code catalogId}'s, every relation the catalog lists that is in
     * {@code data} (a deployment made before the register existed); relations under this adapter's
     * naming that the catalog does not list are reported, never registered nor dropped.
     */
    static void registerListed(DSLContext catalog, DSLContext data, String catalogId, long now, String dataAt) {
        Set<String> listed = new HashSet<>(catalog.select(SP_TABLES.RELATION_NAME).from(SP_TABLES).fetch(SP_TABLES.RELATION_NAME));
        listed.addAll(catalog.select(SP_INDEXES.RELATION_NAME).from(SP_INDEXES).fetch(SP_INDEXES.RELATION_NAME));
        listed.addAll(catalog.select(SP_VECTOR_INDEXES.RELATION_NAME).from(SP_VECTOR_INDEXES)
                .fetch(SP_VECTOR_INDEXES.RELATION_NAME));
        Set<String> registered = new HashSet<>(data.select(SP_DATA_RELATIONS.RELATION_NAME).from(SP_DATA_RELATIONS)
                .fetch(SP_DATA_RELATIONS.RELATION_NAME));
        Set<String> unlisted = new TreeSet<>();
        for (String name : relationsHere(data)) {
            if (listed.contains(name)) {
                data.insertInto(SP_DATA_RELATIONS, SP_DATA_RELATIONS.RELATION_NAME, SP_DATA_RELATIONS.CATALOG_ID,
                        SP_DATA_RELATIONS.REGISTERED_AT).values(name, catalogId, now).onConflictDoNothing().execute();
            } else if (!registered.contains(name) && DataRelation.tableIdOf(name).isPresent()) {
                unlisted.add(name);
            }
        }
        if (!unlisted.isEmpty()) {
            LOG.warn("{} holds data relations under Stillpoint's naming that no catalog row lists and no catalog"
                    + " registered: {}; they are left as they are (the orphan sweep drops only relations it registered)",
                    dataAt, unlisted);
        }
    }

    /**
     * The tables (name, account, base relation) that are not being deleted and whose base relation is
     * not in {@code data}: a catalog opened with another layout or data database than its own.
     */
    static List<String[]> missingBaseRelations(DSLContext catalog, DSLContext data) {
        Set<String> here = relationsHere(data);
        List<String[]> missing = new ArrayList<>();
        for (var r : catalog.select(SP_TABLES.TABLE_NAME, SP_TABLES.ACCOUNT_ID, SP_TABLES.RELATION_NAME).from(SP_TABLES)
                .where(SP_TABLES.STATUS.ne("DELETING")).orderBy(SP_TABLES.ACCOUNT_ID, SP_TABLES.TABLE_NAME).fetch()) {
            if (!here.contains(r.value3())) {
                missing.add(new String[] {r.value1(), r.value2(), r.value3()});
            }
        }
        return missing;
    }

    /**
     * Registers {@code relation} as the owner's, in the transaction that creates it. Fails INTERNAL when
     * the data database has no owner row (never claimed, or the row was removed by hand).
     */
    static void register(DSLContext data, String relation) {
        // The database's clock: the creating transaction's callers carry no time of their own.
        var now = DSL.field("(extract(epoch from clock_timestamp()) * 1000)::bigint", Long.class);
        int rows = data.insertInto(SP_DATA_RELATIONS, SP_DATA_RELATIONS.RELATION_NAME, SP_DATA_RELATIONS.CATALOG_ID,
                        SP_DATA_RELATIONS.REGISTERED_AT)
                .select(data.select(DSL.val(relation), SP_DATA_OWNER.CATALOG_ID, now).from(SP_DATA_OWNER))
                .execute();
        if (rows != 1) {
            throw StorageException.internal("registering data relation " + relation + ": the data database has no"
                    + " owner row (sp_data_owner); reopen the engine to set its ownership up", null);
        }
    }

    /** Removes {@code relation} from the register, in the transaction that drops it. */
    static void unregister(DSLContext data, String relation) {
        data.deleteFrom(SP_DATA_RELATIONS).where(SP_DATA_RELATIONS.RELATION_NAME.eq(relation)).execute();
    }

    /** The relations registered to catalog {@code catalogId}, the only ones its orphan sweep may drop. */
    static List<String> registeredTo(DSLContext data, String catalogId) {
        return data.select(SP_DATA_RELATIONS.RELATION_NAME).from(SP_DATA_RELATIONS)
                .where(SP_DATA_RELATIONS.CATALOG_ID.eq(catalogId)).fetch(SP_DATA_RELATIONS.RELATION_NAME);
    }

    private static Set<String> relationsHere(DSLContext data) {
        return new HashSet<>(data.fetch(RELATIONS_HERE).getValues(0, String.class));
    }

    /** Relations under Stillpoint's naming in the schemas other than the connection's (its pinned search path). */
    private static final String RELATIONS_ELSEWHERE = "SELECT c.relname, n.nspname FROM pg_class c JOIN pg_namespace n"
            + " ON n.oid = c.relnamespace WHERE n.nspname <> current_schema() AND c.relkind IN ('r', 'p')"
            + " AND c.relname LIKE 'd\\_%' ORDER BY 2, 1";

    /**
     * The relations of tables {@code tableIds} that are in another schema than the connection's, each with its
     * schema: left there by a build without the pinned search path ({@code Pools}), which created each relation in
     * the first schema of its login's search path.
     */
    static Map<String, String> elsewhere(DSLContext ctx, Collection<String> tableIds) {
        Map<String, String> found = new LinkedHashMap<>();
        for (var r : ctx.fetch(RELATIONS_ELSEWHERE)) {
            String relation = r.get(0, String.class);
            if (DataRelation.tableIdOf(relation).filter(tableIds::contains).isPresent()) {
                found.put(relation, r.get(1, String.class));
            }
        }
        return found;
    }

    /**
     * Drops {@code relation} and takes it off the register, in the caller's transaction. Refuses a relation this
     * connection's schema does not hold while another schema does ({@link #elsewhere}): a {@code DROP TABLE IF
     * EXISTS} would do nothing and the table would be reported gone with its data left behind [L2].
     *
     * @throws StorageException INTERNAL naming the relation, where it is and where it should be
     */
    static void drop(DSLContext ctx, DataRelation relation) {
        String name = relation.name();
        if (!exists(ctx, name)) {
            String other = DataRelation.tableIdOf(name).map(id -> elsewhere(ctx, Set.of(id)).get(name)).orElse(null);
            if (other != null) {
                Object here = ctx.fetchValue("SELECT current_schema()");
                throw StorageException.internal("data relation " + name + " is in schema '" + other + "', not in schema '"
                        + here + "' where this deployment keeps its relations (an earlier build created it there,"
                        + " following its login's search path); it is not dropped: move it with ALTER TABLE \"" + other
                        + "\".\"" + name + "\" SET SCHEMA \"" + here + "\" and the next attempt completes", null);
            }
        }
        relation.dropIfExists(ctx).execute();
        unregister(ctx, name);
    }

    /** Whether {@code relation} exists in {@code ctx}'s schema. */
    static boolean exists(DSLContext ctx, String relation) {
        return ctx.select(DSL.field("to_regclass({0})", Object.class, DSL.val(relation))).fetchOne(0) != null;
    }

    private static String script() {
        try (InputStream in = DataRelations.class.getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + SCRIPT);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
