package dev.stillpoint.properties.kit.selftest;

import dev.stillpoint.properties.kit.ConformanceFixture;
import dev.stillpoint.properties.kit.Expectations;
import dev.stillpoint.properties.kit.KitEngine;
import dev.stillpoint.properties.kit.KitSettings;
import java.util.Optional;

/** The reference adapter as the kit sees it, correct or with one {@link Flaw}; its engines share one database. */
public final class ReferenceFixture implements ConformanceFixture {

    private final ReferenceDatabase db;
    private final Flaw flaw;
    private final int storedDigits;

    /** A reference storing 38-digit numbers, with {@code flaw}. */
    public ReferenceFixture(Flaw flaw) {
        this(flaw, 38);
    }

    /** A reference storing numbers of at most {@code storedDigits} digits (34 plays MongoDB's Decimal128 [M4]). */
    public ReferenceFixture(Flaw flaw, int storedDigits) {
        this.flaw = flaw;
        this.storedDigits = storedDigits;
        this.db = new ReferenceDatabase(storedDigits);
    }

    @Override
    public String backendName() {
        return flaw == Flaw.NONE ? "reference" : "reference with " + flaw;
    }

    @Override
    public KitEngine start(KitSettings settings) {
        return new ReferenceEngine(db, settings, flaw);
    }

    @Override
    public java.util.Set<String> relationsInCatalog() {
        return db.relations();
    }

    @Override
    public void writeAttributeDefinitions(String accountId, String tableName,
                                          java.util.List<dev.stillpoint.domain.key.AttributeDefinition> definitions) {
        db.writeDefinitions(accountId, tableName, definitions);
    }

    @Override
    public Expectations expectations() {
        int declared = flaw == Flaw.ACCEPTS_38_DIGIT_NUMBERS_DECLARING_34 ? 34 : storedDigits;
        return new Expectations(true, declared, Optional.empty());
    }
}
