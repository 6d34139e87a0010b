package dev.stillpoint.itemjson;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.CatalogDamage;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.ProjectionType;
import dev.stillpoint.domain.table.StreamSpecification;
import dev.stillpoint.domain.table.TimeToLive;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.ScalarType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How the SQL catalogs store a description's parts in JSON columns, written with the one item codec
 * ({@link ItemJson}) so an operator reads them in the same DynamoDB JSON as the items: definitions
 * are {@code {"<name>":{"S":"<type>"}}}. Shared by the SQLite, PostgreSQL, MongoDB and Cassandra adapters.
 */
public final class CatalogJson {

    private CatalogJson() {
    }

    /**
     * The attribute definitions as the catalog stores them: one JSON object from name to type.
     *
     * @param definitions the table's attribute definitions
     * @return the stored JSON text
     */
    public static String definitions(List<AttributeDefinition> definitions) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        definitions.forEach(d -> m.put(d.name(), new AttributeValue.S(d.type().name())));
        return ItemJson.encode(Item.of(m));
    }

    /**
     * Definitions as stored; one with a type that is not S, N or B is left out (the table then streams unordered [D1]).
     *
     * @param json the stored JSON text
     * @return the definitions with a usable type
     */
    public static List<AttributeDefinition> definitions(String json) {
        return parsed("attribute definitions", json, () -> {
            List<AttributeDefinition> out = new ArrayList<>();
            ItemJson.decode(json).attributes().forEach((name, type) -> {
                if (type instanceof AttributeValue.S s && (s.value().equals("S") || s.value().equals("N")
                        || s.value().equals("B"))) {
                    out.add(new AttributeDefinition(name, ScalarType.valueOf(s.value())));
                }
            });
            return out;
        });
    }

    /**
     * A projection as the catalog stores it.
     *
     * @param p the projection
     * @return the stored JSON text
     */
    public static String projection(Projection p) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        m.put("type", new AttributeValue.S(p.type().name()));
        m.put("nonKeyAttributes", new AttributeValue.L(p.nonKeyAttributes().stream()
                .map(a -> (AttributeValue) new AttributeValue.S(a)).toList()));
        return ItemJson.encode(Item.of(m));
    }

    /**
     * A projection as stored; unreadable text is an Internal error saying the catalog entry is damaged.
     *
     * @param json the stored JSON text
     * @return the projection
     */
    public static Projection projection(String json) {
        return parsed("projection", json, () -> {
            Item item = ItemJson.decode(json);
            ProjectionType type = ProjectionType.valueOf(((AttributeValue.S) item.get("type")).value());
            List<String> attrs = ((AttributeValue.L) item.get("nonKeyAttributes")).values().stream()
                    .map(v -> ((AttributeValue.S) v).value()).toList();
            return new Projection(type, attrs);
        });
    }

    /**
     * A stream setting as the catalog stores it; {@code null} when the table has none.
     *
     * @param spec the stream setting, if any
     * @return the stored JSON text, or {@code null}
     */
    public static String stream(Optional<StreamSpecification> spec) {
        return stream(spec, ChangeLog.OFF);
    }

    /**
     * The stream setting and the change log setting [I1], as the catalog stores them in one text (the
     * stream's column): {@code {"enabled":..,"viewType":..}} for the stream as before, plus
     * {@code "changeLog":{"S":"NEW_IMAGE"}} only when the table keeps a log. So no catalog needs a new
     * column, and every text stored before the log existed reads back as {@link ChangeLog#OFF}.
     *
     * @param spec the stream setting, if any
     * @param changeLog the change log setting
     * @return the stored JSON text, or {@code null} when there is no stream and no log
     */
    public static String stream(Optional<StreamSpecification> spec, ChangeLog changeLog) {
        if (spec.isEmpty() && !changeLog.enabled()) {
            return null;
        }
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        spec.ifPresent(s -> {
            m.put("enabled", s.enabled() ? AttributeValue.Bool.TRUE : AttributeValue.Bool.FALSE);
            s.viewType().ifPresent(v -> m.put("viewType", new AttributeValue.S(v)));
        });
        if (changeLog.enabled()) {
            m.put("changeLog", new AttributeValue.S(changeLog.name()));
        }
        return ItemJson.encode(Item.of(m));
    }

    /**
     * A stream setting as stored; unreadable text is an Internal error saying the catalog entry is damaged.
     * The view type is read under {@code viewType}, or under {@code view_type} where a Cassandra catalog
     * row written before the adapter used this codec spells it so (such rows are never rewritten).
     *
     * @param json the stored JSON text, or {@code null}
     * @return the stream setting, or empty when none is stored (the text may hold only a change log)
     */
    public static Optional<StreamSpecification> stream(String json) {
        if (json == null) {
            return Optional.empty();
        }
        return parsed("stream specification", json, () -> {
            Item item = ItemJson.decode(json);
            if (item.find("enabled").isEmpty() && item.find("changeLog").isPresent()) {
                return Optional.empty();
            }
            return Optional.of(new StreamSpecification(((AttributeValue.Bool) item.get("enabled")).value(),
                    item.find("viewType").or(() -> item.find("view_type")).map(v -> ((AttributeValue.S) v).value())));
        });
    }

    /**
     * The change log setting [I1] stored beside the stream setting; {@link ChangeLog#OFF} when the text is
     * absent or names none (every text stored before the log existed). Unreadable text, or a setting that
     * is not one of {@link ChangeLog}'s, is an Internal error saying the catalog entry is damaged.
     *
     * @param json the stored JSON text of the stream column, or {@code null}
     * @return the change log setting
     */
    public static ChangeLog changeLog(String json) {
        if (json == null) {
            return ChangeLog.OFF;
        }
        return parsed("change log", json, () -> ItemJson.decode(json).find("changeLog")
                .map(v -> ChangeLog.named(((AttributeValue.S) v).value()))
                .orElse(ChangeLog.OFF));
    }

    /**
     * A time-to-live setting as the catalog stores it; {@code null} when the table has none.
     *
     * @param ttl the time-to-live setting, if any
     * @return the stored JSON text, or {@code null}
     */
    public static String ttl(Optional<TimeToLive> ttl) {
        return ttl.map(t -> {
            Map<String, AttributeValue> m = new LinkedHashMap<>();
            m.put("attributeName", new AttributeValue.S(t.attributeName()));
            m.put("enabled", t.enabled() ? AttributeValue.Bool.TRUE : AttributeValue.Bool.FALSE);
            return ItemJson.encode(Item.of(m));
        }).orElse(null);
    }

    /**
     * A time-to-live setting as stored; unreadable text is an Internal error saying the catalog entry is damaged.
     *
     * @param json the stored JSON text, or {@code null}
     * @return the time-to-live setting, or empty when none is stored
     */
    public static Optional<TimeToLive> ttl(String json) {
        if (json == null) {
            return Optional.empty();
        }
        return parsed("time to live", json, () -> {
            Item item = ItemJson.decode(json);
            return Optional.of(new TimeToLive(((AttributeValue.S) item.get("attributeName")).value(),
                    ((AttributeValue.Bool) item.get("enabled")).value()));
        });
    }

    /**
     * {@code parse}'s result; any failure is catalog damage, reported as such and naming the field and
     * the stored text, never as an item error or with a Java class name [R6]. The caller adds the table.
     */
    private static <T> T parsed(String field, String json, java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (RuntimeException e) {
            throw CatalogDamage.field(field, json, e);
        }
    }
}
