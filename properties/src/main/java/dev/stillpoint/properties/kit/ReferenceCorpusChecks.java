package dev.stillpoint.properties.kit;

import static dev.stillpoint.properties.kit.KitSupport.ACCOUNT;
import static dev.stillpoint.properties.kit.KitSupport.ACTIVE_DEADLINE;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.SoftAssertions;

/**
 * [V1] The DynamoDB reference corpus run against one adapter: every case of
 * {@link DynamoReferenceCorpus#cases()} is sent, and the adapter must give DynamoDB's verdict: an accepted
 * put reads back equal, a refused one is a ValidationException whose message carries what the case names
 * and leaves nothing under its key. Each failure names the case and its documentation page.
 */
final class ReferenceCorpusChecks {

    private ReferenceCorpusChecks() {
    }

    static void v1(ConformanceFixture fixture) {
        run(fixture, DynamoReferenceCorpus.cases());
    }

    static void run(ConformanceFixture fixture, List<ReferenceCase> cases) {
        try (KitEngine engine = RequestRuleChecks.start(fixture)) {
            TableOperations tables = engine.tables();
            String table = KitSupport.uniqueName("v1");
            tables.createTable(DynamoReferenceCorpus.table(ACCOUNT, table));
            KitSupport.awaitStatus(tables, table, TableStatus.ACTIVE, ACTIVE_DEADLINE);
            int digits = fixture.expectations().numberDigits();
            SoftAssertions soft = new SoftAssertions();
            for (ReferenceCase c : cases) {
                check(soft, tables, table, c, digits);
            }
            KitSupport.bestEffortDelete(tables, table);
            soft.assertAll();
        }
    }

    private static void check(SoftAssertions soft, TableOperations tables, String table, ReferenceCase c, int digits) {
        // A backend storing fewer digits (Decimal128's 34) refuses a number it cannot hold [M4].
        boolean accepted = c.accepted() && c.digits() <= digits;
        String what = c.request() + " of " + c.name() + " (" + c.source() + ")";
        StorageException refusal = null;
        try {
            c.request().send(tables, ACCOUNT, table);
        } catch (StorageException e) {
            refusal = e;
        } catch (RuntimeException e) {
            soft.fail("[V1] %s threw %s instead of DynamoDB's verdict: %s", what, e.getClass().getSimpleName(), e.getMessage());
            return;
        }
        if (accepted) {
            if (refusal != null) {
                soft.fail("[V1] %s was refused; DynamoDB accepts it. The refusal: %s", what, refusal.getMessage());
                return;
            }
            c.request().readBack().ifPresent(r -> soft.assertThat(tables.getItem(ACCOUNT, table, r.key()))
                    .as("[V1] %s reads back as written", what).contains(r.item()));
            return;
        }
        if (refusal == null) {
            soft.fail("[V1] %s was accepted; DynamoDB refuses it as a ValidationException", what);
        } else {
            soft.assertThat(refusal.reason()).as("[V1] %s is refused as VALIDATION (message: %s)", what,
                    refusal.getMessage()).isEqualTo(ErrorReason.VALIDATION);
            List<String> mentions = c.digits() > digits ? List.of() : c.mentions();
            for (String mention : mentions) {
                soft.assertThat(refusal.getMessage()).as("[V1] the refusal of %s says '%s'", what, mention).contains(mention);
            }
        }
        c.request().readBack().ifPresent(r -> soft.assertThat(stored(tables, table, r))
                .as("[V1] the refused %s stored nothing", what).isEmpty());
    }

    /** What the table holds under the case's key; a key DynamoDB refuses to read (too long) holds nothing. */
    private static Optional<Item> stored(TableOperations tables, String table, ReferenceCase.ReadBack r) {
        try {
            return tables.getItem(ACCOUNT, table, r.key());
        } catch (StorageException e) {
            if (e.reason() == ErrorReason.VALIDATION) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
