package dev.stillpoint.domain.item;

import dev.stillpoint.domain.error.StorageException;
import java.util.Iterator;
import java.util.Set;

/**
 * The members of an SS or NS (and an {@link AttributeMap}'s key set): immutable, in the order first
 * given, held in an array. Built in one pass over the source, so a decoded set costs no
 * {@code LinkedHashSet} nodes; a repeated member is kept once, so the set can come out smaller than
 * its source (which is how the item-json parser notices a duplicate).
 */
final class SetMembers extends ReadOnlySet<String> {
    private final NameIndex members;

    SetMembers(NameIndex members) {
        this.members = members;
    }

    /**
     * An immutable copy of {@code source}, refusing a missing set or member.
     *
     * @param source the members, read once
     * @param type the set's type name for messages ("SS", "NS")
     */
    static SetMembers copyOf(Set<String> source, String type) {
        if (source == null) {
            // The message is built only on failure: this runs once per decoded set.
            throw StorageException.validation(type + " values must not be null");
        }
        NameIndex members = new NameIndex(source.size());
        for (String member : source) {
            if (member == null) {
                throw StorageException.validation(type + " member must not be null");
            }
            members.add(member);
        }
        return new SetMembers(members);
    }

    @Override
    public int size() {
        return members.size();
    }

    @Override
    public boolean contains(Object member) {
        return members.indexOf(member) >= 0;
    }

    @Override
    public Iterator<String> iterator() {
        return new PositionCursor<>(members.size()) {
            @Override
            String at(int position) {
                return members.name(position);
            }
        };
    }
}
