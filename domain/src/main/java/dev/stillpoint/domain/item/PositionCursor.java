package dev.stillpoint.domain.item;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Walks the positions {@code 0 .. size-1} of an array-backed collection in order, handing each to
 * {@link #at}; shared by the item's sets and map views, whose elements differ only in what a position
 * yields. {@code remove} is left unsupported: the collections are immutable.
 *
 * @param <E> the element type
 */
abstract class PositionCursor<E> implements Iterator<E> {
    private final int size;
    private int next;

    PositionCursor(int size) {
        this.size = size;
    }

    /** The element at {@code position}. */
    abstract E at(int position);

    @Override
    public final boolean hasNext() {
        return next < size;
    }

    @Override
    public final E next() {
        if (next >= size) {
            throw new NoSuchElementException();
        }
        return at(next++);
    }
}
