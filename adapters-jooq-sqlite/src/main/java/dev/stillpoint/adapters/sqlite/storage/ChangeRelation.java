package dev.stillpoint.adapters.sqlite.storage;

import dev.stillpoint.sqlcatalog.TableId;
import static dev.stillpoint.adapters.sqlite.generated.Tables.SP_CHANGE_TEMPLATE;

import dev.stillpoint.sqlcatalog.NamedRelation;
import dev.stillpoint.sqlcatalog.RelationName;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.impl.DSL;

/**
 * A table's change log relation [I1], {@code d_<tableId>__chg__0}: the shape of the generated template
 * {@code sp_change_template} ({@code templates/change_relation.sql}, which says what each column holds)
 * under a name derived from the table id only, as {@link DataRelation} does for the items. Created in the
 * transaction that creates a table keeping a log, dropped with the table's other relations.
 */
public final class ChangeRelation extends NamedRelation {

    private static final Field<Long> SEQ = unqualified(SP_CHANGE_TEMPLATE.SEQ);
    private static final Field<String> KIND = unqualified(SP_CHANGE_TEMPLATE.KIND);
    private static final Field<byte[]> PK = unqualified(SP_CHANGE_TEMPLATE.PK);
    private static final Field<byte[]> SK = unqualified(SP_CHANGE_TEMPLATE.SK);
    private static final Field<String> KEY_JSON = unqualified(SP_CHANGE_TEMPLATE.KEY_JSON);
    private static final Field<String> NEW_IMAGE = unqualified(SP_CHANGE_TEMPLATE.NEW_IMAGE);
    private static final Field<String> OLD_IMAGE = unqualified(SP_CHANGE_TEMPLATE.OLD_IMAGE);

    private ChangeRelation(RelationName relation) {
        super(relation);
    }

    /** The change relation of {@code table}. */
    public static ChangeRelation of(TableId table) {
        return new ChangeRelation(RelationName.changes(table.value()));
    }

    /** The change relation of the table whose id a catalog row holds; refuses an id this adapter would not make. */
    public static ChangeRelation ofTableId(String tableId) {
        return of(new TableId(tableId));
    }

    public Field<Long> seq() {
        return SEQ;
    }

    public Field<String> changeKind() {
        return KIND;
    }

    public Field<byte[]> pk() {
        return PK;
    }

    public Field<byte[]> sk() {
        return SK;
    }

    public Field<String> keyJson() {
        return KEY_JSON;
    }

    public Field<String> newImage() {
        return NEW_IMAGE;
    }

    public Field<String> oldImage() {
        return OLD_IMAGE;
    }

    /** The columns in template order. */
    public List<Field<?>> fields() {
        return List.of(SEQ, KIND, PK, SK, KEY_JSON, NEW_IMAGE, OLD_IMAGE);
    }

    /** The relation (a rowid table: rowid orders the rows of one transaction) and its index on {@code seq}. */
    public List<Query> createAll(DSLContext ctx) {
        return List.of(ctx.createTable(table()).columns(fields()),
                ctx.createIndex(DSL.name(name() + "__seq")).on(table(), SEQ));
    }

    private static <T> Field<T> unqualified(Field<T> templateField) {
        return DSL.field(templateField.getUnqualifiedName(), templateField.getDataType());
    }
}
