package dev.stillpoint.cli;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;
import dev.stillpoint.domain.key.KeyOrder;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.lifecycle.TableEvent;
import dev.stillpoint.domain.lifecycle.TableLifecycle;
import dev.stillpoint.domain.lifecycle.TableState;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The main job. Until the SQLite adapter lands it exercises the domain core only: key order and
 * number normalisation, and a table's lifecycle through a deferred DeleteTable.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Show what Stillpoint guarantees (domain core: key order and the table lifecycle).")
final class DemoCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        keyOrder(out);
        lifecycle(out);
        out.flush();
        return 0;
    }

    private static void keyOrder(PrintWriter out) {
        out.println("Key order [D2]: S by UTF-8 bytes, N by value.");
        List<String> texts = new ArrayList<>(List.of("\uFFFD", "\uD83D\uDE00", "a", "B"));
        texts.sort(Comparator.naturalOrder());
        out.println("  String.compareTo order : " + texts);
        texts.sort((a, b) -> KeyOrder.compareValues(ScalarType.S, new AttributeValue.S(a), new AttributeValue.S(b)));
        out.println("  KeyOrder (UTF-8 bytes) : " + texts);
        List<String> numbers = new ArrayList<>(List.of("10", "9.9E125", "-1.5", "1E-130", "2", "0.5"));
        numbers.sort(Comparator.naturalOrder());
        out.println("  text order             : " + numbers);
        numbers.sort((a, b) -> KeyOrder.compareValues(ScalarType.N, AttributeValue.N.of(a), AttributeValue.N.of(b)));
        out.println("  KeyOrder (numeric)     : " + numbers);
        out.println("  1.5E2 normalises to " + DynamoNumber.normalise("1.5E2") + ", -0 to " + DynamoNumber.normalise("-0"));
    }

    private static void lifecycle(PrintWriter out) {
        out.println("Table lifecycle [D4, D5]: a DeleteTable meeting a reader is deferred, never blocked.");
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        List<TableEvent> events = List.of(
                new TableEvent.CreateRequested(t, Duration.ofMillis(250)),
                new TableEvent.ActivationCheck(t.plusMillis(250)),
                new TableEvent.DeleteRequested(t.plusSeconds(1), Duration.ofMillis(250)),
                new TableEvent.Probed(t.plusSeconds(1), true),
                new TableEvent.PollerPass(t.plusSeconds(2)),
                new TableEvent.Probed(t.plusSeconds(2), false),
                new TableEvent.DropFinished(t.plusSeconds(2), TableEvent.DropOutcome.DROPPED));
        TableState state = new TableState.Absent();
        for (TableEvent event : events) {
            var answer = TableLifecycle.apply(state, event);
            state = answer.nextOr(state);
            out.printf("  %-70s -> %-45s %s%n", event, state, answer.effects());
        }
    }
}
