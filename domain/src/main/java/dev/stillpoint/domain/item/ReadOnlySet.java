package dev.stillpoint.domain.item;

import java.util.AbstractSet;
import java.util.Collection;
import java.util.function.Predicate;

/**
 * A set whose every mutator throws {@link UnsupportedOperationException}, whether or not the call
 * would change anything, as {@code Collections.unmodifiableSet}'s do ({@code AbstractSet} throws only
 * when there is something to change). The base of the item's own sets and map views.
 *
 * @param <E> the element type
 */
abstract class ReadOnlySet<E> extends AbstractSet<E> {
    @Override
    public final boolean add(E element) {
        throw new UnsupportedOperationException();
    }

    @Override
    public final boolean remove(Object element) {
        throw new UnsupportedOperationException();
    }

    @Override
    public final boolean addAll(Collection<? extends E> elements) {
        throw new UnsupportedOperationException();
    }

    @Override
    public final boolean removeAll(Collection<?> elements) {
        throw new UnsupportedOperationException();
    }

    @Override
    public final boolean retainAll(Collection<?> elements) {
        throw new UnsupportedOperationException();
    }

    @Override
    public final boolean removeIf(Predicate<? super E> filter) {
        throw new UnsupportedOperationException();
    }

    @Override
    public final void clear() {
        throw new UnsupportedOperationException();
    }
}
