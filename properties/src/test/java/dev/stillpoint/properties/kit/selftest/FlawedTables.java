package dev.stillpoint.properties.kit.selftest;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.ItemLimits;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.request.BatchWriteResult;
import dev.stillpoint.domain.request.ItemRules;
import dev.stillpoint.domain.request.ItemWrite;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.core.lifecycle.TableCreation;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The reference's table operations with one request-rule {@link Flaw}: each is a way an adapter that
 * did its own request handling has gone wrong (issue 7's findings), so the request-rules kit must
 * reject each [R1-R6]. Without a request-rule flaw it is the core service unchanged.
 */
final class FlawedTables implements TableOperations {

    private final TableOperations core;
    private final ReferenceDatabase db;
    private final TableCreation creation;
    private final Flaw flaw;

    FlawedTables(TableOperations core, ReferenceDatabase db, TableCreation creation, Flaw flaw) {
        this.core = core;
        this.db = db;
        this.creation = creation;
        this.flaw = flaw;
    }

    @Override
    public TableDescription createTable(CreateTableRequest request) {
        if (flaw == Flaw.KEY_NAMES_AND_ACCOUNTS_UNCHECKED) {
            return creation.createTable(request);
        }
        try {
            return core.createTable(request);
        } catch (StorageException e) {
            if (flaw == Flaw.INTERNAL_STATE_IN_MESSAGES) {
                throw new StorageException(e.reason(), "cannot create table: exists and is Active[]");
            }
            throw e;
        }
    }

    @Override
    public TableDescription describeTable(String accountId, String tableName) {
        return flaw == Flaw.TABLE_NAMES_UNCHECKED ? db.describe(accountId, tableName) : core.describeTable(accountId, tableName);
    }

    @Override
    public List<String> listTables(String accountId) {
        return flaw == Flaw.KEY_NAMES_AND_ACCOUNTS_UNCHECKED ? db.tableNames(accountId) : core.listTables(accountId);
    }

    @Override
    public TableDescription addGlobalSecondaryIndex(String accountId, String tableName, CreateGsiRequest request) {
        return core.addGlobalSecondaryIndex(accountId, tableName, request);
    }

    @Override
    public TableDescription updateChangeLog(String accountId, String tableName, ChangeLog setting) {
        return core.updateChangeLog(accountId, tableName, setting);
    }

    @Override
    public TableDescription deleteTable(String accountId, String tableName) {
        return core.deleteTable(accountId, tableName);
    }

    @Override
    public void putItem(String accountId, String tableName, Item item) {
        switch (flaw) {
            case INDEX_KEYS_UNCHECKED -> db.put(accountId, tableName, d -> {
                Item valid = ItemLimits.validateForPut(item, d.keySchema(), d.attributeDefinitions());
                return new ItemWrite(Key.of(valid, d.keySchema()), valid, Map.of());
            });
            case EMPTY_SETS_ACCEPTED -> db.put(accountId, tableName, d -> {
                ItemWrite checked = ItemRules.forPut(d, withOneMemberForEmptySets(item));
                return new ItemWrite(checked.key(), item, checked.indexKeys());
            });
            case LONE_SURROGATES_STORED_AS_QUESTION_MARKS -> core.putItem(accountId, tableName,
                    strings(item, FlawedTables::questionMarks));
            case NUL_DROPPED -> core.putItem(accountId, tableName, withoutNulOutsideTheKey(item));
            default -> core.putItem(accountId, tableName, item);
        }
    }

    @Override
    public Optional<Item> getItem(String accountId, String tableName, RequestKey key) {
        if (flaw == Flaw.LONE_SURROGATES_STORED_AS_QUESTION_MARKS) {
            key = new RequestKey(strings(Item.of(key.attributes()), FlawedTables::questionMarks).attributes());
        }
        return core.getItem(accountId, tableName, keyAsTaken(accountId, tableName, key));
    }

    @Override
    public void deleteItem(String accountId, String tableName, RequestKey key) {
        core.deleteItem(accountId, tableName, keyAsTaken(accountId, tableName, key));
    }

    /**
     * The request's key as this adapter takes it: with {@link Flaw#EXTRA_KEY_ATTRIBUTES_DROPPED}, only the
     * key schema's attributes, as {@code Key.of(Item, KeySchema)} picked them out of the request's map.
     */
    private RequestKey keyAsTaken(String accountId, String tableName, RequestKey key) {
        if (flaw != Flaw.EXTRA_KEY_ATTRIBUTES_DROPPED) {
            return key;
        }
        KeySchema schema = core.describeTable(accountId, tableName).keySchema();
        Map<String, AttributeValue> kept = new LinkedHashMap<>(key.attributes());
        kept.keySet().removeIf(name -> !name.equals(schema.partitionKey()) && !schema.sortKey().map(name::equals).orElse(false));
        return new RequestKey(kept);
    }

    @Override
    public BatchWriteResult batchWriteItem(String accountId, Map<String, List<WriteRequest>> requestItems) {
        if (flaw == Flaw.EXTRA_KEY_ATTRIBUTES_DROPPED) {
            Map<String, List<WriteRequest>> taken = new LinkedHashMap<>();
            requestItems.forEach((table, requests) -> taken.put(table, requests.stream()
                    .map(r -> r instanceof WriteRequest.Delete d ? new WriteRequest.Delete(keyAsTaken(accountId, table, d.key())) : r)
                    .toList()));
            return core.batchWriteItem(accountId, taken);
        }
        if (flaw != Flaw.BATCH_APPLIED_ONE_BY_ONE) {
            return core.batchWriteItem(accountId, requestItems);
        }
        requestItems.forEach((table, requests) -> requests.forEach(request -> {
            if (request instanceof WriteRequest.Put p) {
                core.putItem(accountId, table, p.item());
            } else {
                core.deleteItem(accountId, table, ((WriteRequest.Delete) request).key());
            }
        }));
        return BatchWriteResult.applied();
    }

    /** The item with NUL dropped from every string but the key attribute {@code pk} (the kit's tables' key). */
    private static Item withoutNulOutsideTheKey(Item item) {
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        item.attributes().forEach((name, value) -> out.put(name.equals("pk") ? name : name.replace("\u0000", ""),
                name.equals("pk") ? value : strings(value, s -> s.replace("\u0000", ""))));
        return Item.of(out);
    }

    /** {@code item} with every empty set, at any depth, holding one member instead: what the flawed check sees. */
    private static Item withOneMemberForEmptySets(Item item) {
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        item.attributes().forEach((name, value) -> out.put(name, oneMemberIfEmpty(value)));
        return Item.of(out);
    }

    private static AttributeValue oneMemberIfEmpty(AttributeValue value) {
        if (value instanceof AttributeValue.SS ss && ss.values().isEmpty()) {
            return new AttributeValue.SS(Set.of("a"));
        }
        if (value instanceof AttributeValue.NS ns && ns.values().isEmpty()) {
            return new AttributeValue.NS(Set.of("1"));
        }
        if (value instanceof AttributeValue.BS bs && bs.size() == 0) {
            return new AttributeValue.BS(List.of(new byte[] {0}));
        }
        if (value instanceof AttributeValue.L l) {
            return new AttributeValue.L(l.values().stream().map(FlawedTables::oneMemberIfEmpty).toList());
        }
        if (value instanceof AttributeValue.M m) {
            Map<String, AttributeValue> entries = new LinkedHashMap<>();
            m.values().forEach((k, v) -> entries.put(k, oneMemberIfEmpty(v)));
            return new AttributeValue.M(entries);
        }
        return value;
    }

    /** What an encoder that cannot represent a lone surrogate does with it: {@code '?'}. */
    private static String questionMarks(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else {
                out.append(Character.isSurrogate(c) ? '?' : c);
            }
        }
        return out.toString();
    }

    /** {@code item} with every name and string inside it passed through {@code f}. */
    private static Item strings(Item item, UnaryOperator<String> f) {
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        item.attributes().forEach((name, value) -> out.put(f.apply(name), strings(value, f)));
        return Item.of(out);
    }

    private static AttributeValue strings(AttributeValue value, UnaryOperator<String> f) {
        if (value instanceof AttributeValue.S s) {
            return AttributeValue.s(f.apply(s.value()));
        }
        if (value instanceof AttributeValue.SS ss) {
            Set<String> members = new LinkedHashSet<>();
            ss.values().forEach(m -> members.add(f.apply(m)));
            return new AttributeValue.SS(members);
        }
        if (value instanceof AttributeValue.L l) {
            return new AttributeValue.L(l.values().stream().map(v -> strings(v, f)).toList());
        }
        if (value instanceof AttributeValue.M m) {
            Map<String, AttributeValue> entries = new LinkedHashMap<>();
            m.values().forEach((k, v) -> entries.put(f.apply(k), strings(v, f)));
            return new AttributeValue.M(entries);
        }
        return value;
    }
}
