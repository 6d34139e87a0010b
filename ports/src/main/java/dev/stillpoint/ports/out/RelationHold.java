package dev.stillpoint.ports.out;

/**
 * A lock another session holds on one of a table's data relations, as an operator would want to
 * see it [P10].
 *
 * @param relation the data relation's name (base, GSI, LSI or vector index)
 * @param mode     the lock mode, e.g. {@code AccessShareLock}
 * @param holder   who holds it, e.g. a backend pid and its application name
 */
public record RelationHold(String relation, String mode, String holder) {
}
