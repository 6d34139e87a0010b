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
        /**
         * Copies {@code effects}.
         *
         * @param next the state moved to
         * @param effects the effects to perform, in order
         */
        public Moved {
            effects = List.copyOf(effects);
        }
    }

    /** Refused: the state is unchanged and nothing is done. */
    record Refused<S, E, R>(R refusal, String detail) implements Transition<S, E, R> { }

    /**
     * The next state, or {@code current} when refused.
     *
     * @param current the state the machine was in
     * @return the state after this transition
     */
    default S nextOr(S current) {
        return this instanceof Moved<S, E, R> m ? m.next() : current;
    }

    /**
     * The effects to perform, empty when refused.
     *
     * @return the effects, in order
     */
    default List<E> effects() {
        return this instanceof Moved<S, E, R> m ? m.effects() : List.of();
    }

    /**
     * A move to {@code next} with {@code effects}.
     *
     * @param <S> the machine's state type
     * @param <E> the machine's effect type
     * @param <R> the machine's refusal type
     * @param next the state moved to
     * @param effects the effects to perform, in order
     * @return the move
     */
    static <S, E, R> Transition<S, E, R> to(S next, List<E> effects) {
        return new Moved<>(next, effects);
    }

    /**
     * A move to {@code next} with {@code effects}.
     *
     * @param <S> the machine's state type
     * @param <E> the machine's effect type
     * @param <R> the machine's refusal type
     * @param next the state moved to
     * @param effects the effects to perform, in order
     * @return the move
     */
    @SafeVarargs
    static <S, E, R> Transition<S, E, R> to(S next, E... effects) {
        return new Moved<>(next, List.of(effects));
    }

    /**
     * A refusal that leaves the state unchanged.
     *
     * @param <S> the machine's state type
     * @param <E> the machine's effect type
     * @param <R> the machine's refusal type
     * @param refusal the named refusal
     * @param detail what was refused, for the message
     * @return the refusal
     */
    static <S, E, R> Transition<S, E, R> refuse(R refusal, String detail) {
        return new Refused<>(refusal, detail);
    }
}
