package dev.stillpoint.domain.machine;

import java.util.List;

/**
 * The answer of a transition function: either the next state with the effects to perform in
 * order, or a named refusal that leaves the state unchanged.
 *
 * @param <S> the machine's state type
 * @param <E> the machine's effect type
 * @param <R> the machine's refusal type
 */
public sealed interface Transition<S, E, R> {

    /** Moved (possibly to the same state) with effects to perform in order. */
    record Moved<S, E, R>(S next, List<E> effects) implements Transition<S, E, R> {
        public Moved {
            effects = List.copyOf(effects);
        }
    }

    /** Refused: the state is unchanged and nothing is done. */
    record Refused<S, E, R>(R refusal, String detail) implements Transition<S, E, R> { }

    /** The next state, or {@code current} when refused. */
    default S nextOr(S current) {
        return this instanceof Moved<S, E, R> m ? m.next() : current;
    }

    /** The effects to perform, empty when refused. */
    default List<E> effects() {
        return this instanceof Moved<S, E, R> m ? m.effects() : List.of();
    }

    static <S, E, R> Transition<S, E, R> to(S next, List<E> effects) {
        return new Moved<>(next, effects);
    }

    @SafeVarargs
    static <S, E, R> Transition<S, E, R> to(S next, E... effects) {
        return new Moved<>(next, List.of(effects));
    }

    static <S, E, R> Transition<S, E, R> refuse(R refusal, String detail) {
        return new Refused<>(refusal, detail);
    }
}
