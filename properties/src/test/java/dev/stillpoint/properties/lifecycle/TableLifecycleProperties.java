package dev.stillpoint.properties.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.lifecycle.TableEffect;
import dev.stillpoint.domain.lifecycle.TableEvent;
import dev.stillpoint.domain.lifecycle.TableEvent.DropOutcome;
import dev.stillpoint.domain.lifecycle.TableLifecycle;
import dev.stillpoint.domain.lifecycle.TableRefusal;
import dev.stillpoint.domain.lifecycle.TableState;
import dev.stillpoint.domain.lifecycle.TableState.DropRetry;
import dev.stillpoint.domain.machine.Transition;
import dev.stillpoint.domain.table.TableStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The table lifecycle and the DeleteTable decision [D4, D5], checked over generated event
 * sequences: each sequence runs from ABSENT, and every step's answer is checked against the rule
 * it must keep. A failing sequence shrinks to the shortest one that breaks the rule.
 */
class TableLifecycleProperties {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /** One step of a run: the state before, the event, and the machine's answer. */
    record Step(TableState before, TableEvent event, Transition<TableState, TableEffect, TableRefusal> answer) {
        TableState after() {
            return answer.nextOr(before);
        }
    }

    static List<Step> run(List<TableEvent> events) {
        List<Step> steps = new ArrayList<>();
        TableState state = new TableState.Absent();
        for (TableEvent event : events) {
            Transition<TableState, TableEffect, TableRefusal> answer = TableLifecycle.apply(state, event);
            steps.add(new Step(state, event, answer));
            state = answer.nextOr(state);
        }
        return steps;
    }

    // D4: every (state, event) pair has an answer, and a refusal leaves the state as it was.
    @Property
    void d4_everyStateEventPairHasAnAnswer(@ForAll("states") TableState state, @ForAll("events") TableEvent event) {
        Transition<TableState, TableEffect, TableRefusal> answer = TableLifecycle.apply(state, event);
        assertThat(answer).isNotNull();
        if (answer instanceof Transition.Refused<TableState, TableEffect, TableRefusal> refused) {
            assertThat(refused.refusal()).isNotNull();
            assertThat(refused.detail()).isNotBlank();
            assertThat(answer.effects()).isEmpty();
            assertThat(answer.nextOr(state)).isEqualTo(state);
        }
    }

    // D4: gone is terminal: once a run reaches GONE, every later event is refused and it stays GONE.
    @Property
    void d4_goneIsTerminal(@ForAll("eventSequences") List<TableEvent> events) {
        boolean gone = false;
        for (Step step : run(events)) {
            if (gone) {
                assertThat(step.answer()).isInstanceOf(Transition.Refused.class);
                assertThat(step.after()).isInstanceOf(TableState.Gone.class);
            }
            gone |= step.after() instanceof TableState.Gone;
        }
    }

    // D5, Q5: DeleteTable of a DELETING table returns its description and changes nothing.
    @Property
    void d5_deleteOfDeletingChangesNothing(@ForAll("deleting") TableState.Deleting deleting,
                                           @ForAll("deletes") TableEvent.DeleteRequested delete) {
        Transition<TableState, TableEffect, TableRefusal> answer = TableLifecycle.apply(deleting, delete);
        assertThat(answer).isInstanceOf(Transition.Moved.class);
        assertThat(answer.nextOr(null)).isEqualTo(deleting);
        assertThat(answer.effects()).isEmpty();
    }

    // D5: CreateTable of a name that has a row in any state, DELETING included, is ResourceInUse.
    @Property
    void d5_createOfExistingNameIsResourceInUse(@ForAll("eventSequences") List<TableEvent> events) {
        for (Step step : run(events)) {
            if (step.event() instanceof TableEvent.CreateRequested && !(step.before() instanceof TableState.Absent)
                    && !(step.before() instanceof TableState.Gone)) {
                assertThat(step.answer()).isInstanceOf(Transition.Refused.class);
                TableRefusal refusal = ((Transition.Refused<TableState, TableEffect, TableRefusal>) step.answer()).refusal();
                assertThat(refusal.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
            }
        }
    }

    // D5: no effect sequence removes the catalog row before every data-relation drop succeeded:
    // a removal only ever answers a DROPPED outcome, in the same step, with no rollback after it.
    @Property
    void d5_rowRemovedOnlyAfterEveryDropSucceeded(@ForAll("eventSequences") List<TableEvent> events) {
        for (Step step : run(events)) {
            List<TableEffect> effects = step.answer().effects();
            if (effects.stream().anyMatch(e -> e instanceof TableEffect.RemoveCatalogRow)) {
                assertThat(step.before()).isInstanceOf(TableState.Dropping.class);
                assertThat(step.event()).isInstanceOfSatisfying(TableEvent.DropFinished.class,
                        e -> assertThat(e.outcome()).isEqualTo(DropOutcome.DROPPED));
                assertThat(effects).containsExactly(new TableEffect.RemoveCatalogRow());
                assertThat(step.after()).isInstanceOf(TableState.Gone.class);
            }
            if (step.after() instanceof TableState.Gone && !(step.before() instanceof TableState.Gone)) {
                assertThat(effects).contains(new TableEffect.RemoveCatalogRow());
            }
        }
    }

    // D5: a holder found by the probe, or a lock-wait failure in the drop, always defers with the row kept.
    @Property
    void d5_holderOrLockWaitDefersWithRowKept(@ForAll("eventSequences") List<TableEvent> events) {
        for (Step step : run(events)) {
            boolean holder = step.event() instanceof TableEvent.Probed p && p.held()
                    && step.before() instanceof TableState.Probing;
            boolean lockWait = step.event() instanceof TableEvent.DropFinished d
                    && d.outcome() == DropOutcome.LOCK_WAIT_FAILED && step.before() instanceof TableState.Dropping;
            if (holder || lockWait) {
                assertThat(step.after()).isInstanceOfSatisfying(TableState.Deleting.class, d -> {
                    assertThat(d.retry()).isEqualTo(DropRetry.DEFERRED);
                    assertThat(d.dueAt()).isEqualTo(eventTime(step.event()));
                });
                assertThat(step.answer().effects())
                        .noneMatch(e -> e instanceof TableEffect.RemoveCatalogRow || e instanceof TableEffect.DropRelations);
                if (lockWait) {
                    assertThat(step.answer().effects()).first().isEqualTo(new TableEffect.RollBackDrops());
                }
            }
        }
    }

    // D5: with a delay of a second or more DeleteTable never probes and never drops inline.
    @Property
    void d5_longDelayGoesDeletingWithoutProbe(@ForAll("deletes") TableEvent.DeleteRequested delete) {
        Transition<TableState, TableEffect, TableRefusal> answer = TableLifecycle.apply(new TableState.Active(), delete);
        if (delete.controlPlaneDelay().compareTo(Duration.ofSeconds(1)) >= 0) {
            assertThat(answer.nextOr(null)).isEqualTo(
                    new TableState.Deleting(delete.now().plus(delete.controlPlaneDelay()), DropRetry.SCHEDULED));
            assertThat(answer.effects()).noneMatch(e -> e instanceof TableEffect.ProbeHolders);
        } else {
            assertThat(answer.nextOr(null)).isEqualTo(new TableState.Probing(TableState.DropPath.SYNCHRONOUS));
            assertThat(answer.effects()).containsExactly(new TableEffect.ProbeHolders());
        }
    }

    // D8: a drop failing for a reason other than a lock wait is not deferred: it waits for the idle sweep.
    @Property
    void d8_otherDropFailureIsNotDeferred(@ForAll("dropPaths") TableState.DropPath path, @ForAll("instants") Instant now) {
        Transition<TableState, TableEffect, TableRefusal> answer = TableLifecycle.apply(
                new TableState.Dropping(path), new TableEvent.DropFinished(now, DropOutcome.OTHER_FAILURE));
        assertThat(answer.nextOr(null)).isEqualTo(
                new TableState.Deleting(now.plus(TableLifecycle.FAILED_DROP_RETRY), DropRetry.FAILED));
        assertThat(answer.effects()).first().isEqualTo(new TableEffect.RollBackDrops());
        assertThat(answer.effects()).doesNotContain(new TableEffect.RemoveCatalogRow(), new TableEffect.WakePoller());
    }

    // D5: a DeleteTable caller who gives up before the removal commits leaves the table ACTIVE.
    @Property
    void d5_callerGivingUpLeavesTableActive(@ForAll("syncInFlight") TableState inFlight) {
        Transition<TableState, TableEffect, TableRefusal> answer = TableLifecycle.apply(inFlight, new TableEvent.CallerGaveUp());
        assertThat(answer.nextOr(null)).isEqualTo(new TableState.Active());
        assertThat(answer.effects()).containsExactly(new TableEffect.RollBackDrops());
    }

    // D4: activation happens exactly when the control-plane delay has passed.
    @Property
    void d4_activationAfterTheDelay(@ForAll("instants") Instant created, @ForAll("delays") Duration delay,
                                    @ForAll("delays") Duration later) {
        TableState creating = TableLifecycle.apply(new TableState.Absent(), new TableEvent.CreateRequested(created, delay))
                .nextOr(null);
        assertThat(creating).isEqualTo(new TableState.Creating(created.plus(delay)));
        Instant checkAt = created.plus(later);
        TableState after = TableLifecycle.apply(creating, new TableEvent.ActivationCheck(checkAt)).nextOr(creating);
        assertThat(after).isEqualTo(later.compareTo(delay) >= 0 ? new TableState.Active() : creating);
    }

    // D5: the poller never probes a DELETING table before it is due, and always does once it is.
    @Property
    void d5_pollerProbesOnlyWhenDue(@ForAll("deleting") TableState.Deleting deleting, @ForAll("instants") Instant now) {
        Transition<TableState, TableEffect, TableRefusal> answer = TableLifecycle.apply(deleting, new TableEvent.PollerPass(now));
        if (now.isBefore(deleting.dueAt())) {
            assertThat(answer.nextOr(null)).isEqualTo(deleting);
            assertThat(answer.effects()).isEmpty();
        } else {
            assertThat(answer.nextOr(null)).isEqualTo(new TableState.Probing(TableState.DropPath.POLLER));
            assertThat(answer.effects()).containsExactly(new TableEffect.ProbeHolders());
        }
    }

    @Example
    void d5_theSynchronousPathInOrder() {
        List<Step> steps = run(List.of(
                new TableEvent.CreateRequested(T0, Duration.ofMillis(250)),
                new TableEvent.ActivationCheck(T0.plusMillis(250)),
                new TableEvent.DeleteRequested(T0.plusSeconds(1), Duration.ofMillis(250)),
                new TableEvent.Probed(T0.plusSeconds(1), false),
                new TableEvent.DropFinished(T0.plusSeconds(1), DropOutcome.DROPPED)));
        assertThat(steps).allMatch(s -> s.answer() instanceof Transition.Moved);
        assertThat(steps.get(2).answer().effects()).containsExactly(new TableEffect.ProbeHolders());
        assertThat(steps.get(3).answer().effects()).containsExactly(new TableEffect.DropRelations(Duration.ofSeconds(1)));
        assertThat(steps.get(4).after()).isEqualTo(new TableState.Gone());
    }

    // E4: a restore of a name in use, in any state, is refused up front with nothing to do.
    @Property
    void e4_restoreOfANameInUseIsRefused(@ForAll("states") TableState state, @ForAll("instants") Instant now) {
        Transition<TableState, TableEffect, TableRefusal> answer =
                TableLifecycle.apply(state, new TableEvent.RestoreRequested(now, Duration.ofSeconds(60)));
        switch (state.kind()) {
            case ABSENT -> assertThat(answer.effects())
                    .containsExactly(new TableEffect.InsertRestoring(now.plusSeconds(60)));
            case GONE -> assertThat(((Transition.Refused<?, ?, TableRefusal>) answer).refusal())
                    .isEqualTo(TableRefusal.NO_SUCH_TABLE);
            default -> {
                assertThat(((Transition.Refused<?, ?, TableRefusal>) answer).refusal()).isEqualTo(TableRefusal.NAME_IN_USE);
                assertThat(TableRefusal.NAME_IN_USE.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
            }
        }
    }

    // E4: a table being restored is CREATING to the outside until every item is in, so a create or a
    // restore of its name is refused naming it CREATING, never the internal RESTORING state; any other
    // state is named as it is.
    @Example
    void e4_aNameInUseByARestoreIsRefusedAsCreating() {
        TableState restoring = new TableState.Restoring(T0.plusSeconds(60));
        for (TableEvent event : List.<TableEvent>of(new TableEvent.CreateRequested(T0, Duration.ofMillis(250)),
                new TableEvent.RestoreRequested(T0, Duration.ofSeconds(60)))) {
            Transition<TableState, TableEffect, TableRefusal> answer = TableLifecycle.apply(restoring, event);
            assertThat(answer).isInstanceOfSatisfying(Transition.Refused.class, r -> assertThat(r.detail())
                    .as("[E4] %s of a name being restored", event.getClass().getSimpleName())
                    .isEqualTo("a table of this name exists and is CREATING (being restored)"));
        }
        Transition<TableState, TableEffect, TableRefusal> active = TableLifecycle.apply(new TableState.Active(),
                new TableEvent.CreateRequested(T0, Duration.ofMillis(250)));
        assertThat(active).isInstanceOfSatisfying(Transition.Refused.class, r -> assertThat(r.detail())
                .as("[E4] a create of an ACTIVE table's name").isEqualTo("a table of this name exists and is ACTIVE"));
    }

    // E4: a restoring table is never activated by the control-plane delay, however late the check.
    @Property
    void e4_aRestoringTableIsNotActivatedByTheDelay(@ForAll("instants") Instant aliveUntil, @ForAll("instants") Instant now) {
        Transition<TableState, TableEffect, TableRefusal> answer =
                TableLifecycle.apply(new TableState.Restoring(aliveUntil), new TableEvent.ActivationCheck(now));
        assertThat(answer).isInstanceOf(Transition.Refused.class);
        assertThat(((Transition.Refused<?, ?, TableRefusal>) answer).refusal()).isEqualTo(TableRefusal.HELD_BY_RESTORE);
    }

    // E5: a poller pass keeps a restore whose stamp has not passed and removes one whose stamp has.
    @Property
    void e5_aDeadRestoreIsRemovedALiveOneKept(@ForAll("instants") Instant aliveUntil, @ForAll("instants") Instant now) {
        TableState restoring = new TableState.Restoring(aliveUntil);
        Transition<TableState, TableEffect, TableRefusal> answer =
                TableLifecycle.apply(restoring, new TableEvent.RestoreCheck(now));
        if (now.isBefore(aliveUntil)) {
            assertThat(answer.effects()).isEmpty();
            assertThat(answer.nextOr(null)).isEqualTo(restoring);
        } else {
            assertThat(answer.nextOr(null)).isEqualTo(new TableState.Probing(TableState.DropPath.RESTORE));
            assertThat(answer.effects()).containsExactly(new TableEffect.ProbeHolders());
        }
    }

    // E5: DeleteTable of a table being restored is refused while its restore is alive (CREATING, as DynamoDB
    // refuses a CREATING table), and removes it, as the poller's sweep would, once its stamp has passed: found
    // from outside, a restore killed with -9 got "a restore is filling it" from delete-table long after it died.
    @Property
    void e5_deleteTableRefusesALiveRestoreAndRemovesADeadOne(@ForAll("instants") Instant aliveUntil,
                                                             @ForAll("instants") Instant now) {
        Transition<TableState, TableEffect, TableRefusal> answer = TableLifecycle.apply(
                new TableState.Restoring(aliveUntil), new TableEvent.DeleteRequested(now, Duration.ofMillis(250)));
        if (now.isBefore(aliveUntil)) {
            assertThat(answer).isInstanceOfSatisfying(Transition.Refused.class, r -> {
                assertThat(r.refusal()).isEqualTo(TableRefusal.STILL_CREATING);
                assertThat(r.detail()).isEqualTo("table is still CREATING: a restore is filling it");
            });
        } else {
            assertThat(answer.nextOr(null)).isEqualTo(new TableState.Probing(TableState.DropPath.RESTORE));
            assertThat(answer.effects()).containsExactly(new TableEffect.ProbeHolders());
        }
    }

    // D4, E5: a catalog row's fields read back as one state, on every catalog: CREATING is RESTORING exactly
    // while its restore is in progress (the due time then the restore's stamp), DELETING keeps its retry kind.
    @Property
    void d4_aRecordedRowReadsBackAsItsState(@ForAll TableStatus status, @ForAll("instants") Instant due,
                                            @ForAll boolean restoring, @ForAll DropRetry retry) {
        TableState state = TableState.recorded(status, due, restoring, retry);
        TableState expected = switch (status) {
            case CREATING -> restoring ? new TableState.Restoring(due) : new TableState.Creating(due);
            case ACTIVE -> new TableState.Active();
            case DELETING -> new TableState.Deleting(due, retry);
        };
        assertThat(state).isEqualTo(expected);
    }

    // E5: the removal of an abandoned restore is never rolled back for a caller, and a holder marks the row DELETING.
    @Property
    void e5_anAbandonedRestoreIsNeverKept(@ForAll("instants") Instant now) {
        TableState probing = new TableState.Probing(TableState.DropPath.RESTORE);
        assertThat(TableLifecycle.apply(probing, new TableEvent.CallerGaveUp())).isInstanceOf(Transition.Refused.class);
        assertThat(TableLifecycle.apply(new TableState.Dropping(TableState.DropPath.RESTORE), new TableEvent.CallerGaveUp()))
                .isInstanceOf(Transition.Refused.class);
        Transition<TableState, TableEffect, TableRefusal> held = TableLifecycle.apply(probing, new TableEvent.Probed(now, true));
        assertThat(held.nextOr(null)).isEqualTo(new TableState.Deleting(now, DropRetry.DEFERRED));
        assertThat(held.effects()).contains(new TableEffect.MarkDeleting(now));
    }

    @Example
    void e4_aRestoreInOrder() {
        List<Step> steps = run(List.of(
                new TableEvent.RestoreRequested(T0, Duration.ofSeconds(4)),
                new TableEvent.RestoreRenewed(T0.plusSeconds(1), Duration.ofSeconds(4)),
                new TableEvent.RestoreCheck(T0.plusSeconds(4)),
                new TableEvent.RestoreCompleted(),
                new TableEvent.RestoreCheck(T0.plusSeconds(60)),
                new TableEvent.RestoreAbandoned()));
        assertThat(steps.get(0).answer().effects()).containsExactly(new TableEffect.InsertRestoring(T0.plusSeconds(4)));
        assertThat(steps.get(1).answer().effects()).containsExactly(new TableEffect.RenewRestore(T0.plusSeconds(5)));
        assertThat(steps.get(2).answer().effects()).as("renewed: still alive at the first stamp").isEmpty();
        assertThat(steps.get(3).answer().effects()).containsExactly(new TableEffect.MarkRestored());
        assertThat(steps.get(3).after()).isEqualTo(new TableState.Active());
        assertThat(steps.get(4).answer()).as("a completed restore is never checked again").isInstanceOf(Transition.Refused.class);
        assertThat(steps.get(5).answer()).as("nor abandoned").isInstanceOf(Transition.Refused.class);
    }

    private static Instant eventTime(TableEvent event) {
        if (event instanceof TableEvent.Probed p) {
            return p.now();
        }
        return ((TableEvent.DropFinished) event).now();
    }

    @Provide
    Arbitrary<Instant> instants() {
        return Arbitraries.longs().between(0, 100_000).map(T0::plusMillis);
    }

    @Provide
    Arbitrary<Duration> delays() {
        return Arbitraries.oneOf(Arbitraries.of(Duration.ZERO, Duration.ofMillis(999), Duration.ofSeconds(1)),
                Arbitraries.longs().between(0, 5_000).map(Duration::ofMillis));
    }

    @Provide
    Arbitrary<TableState.DropPath> dropPaths() {
        return Arbitraries.of(TableState.DropPath.class);
    }

    @Provide
    Arbitrary<TableState.Deleting> deleting() {
        return Combinators.combine(instants(), Arbitraries.of(DropRetry.class)).as(TableState.Deleting::new);
    }

    @Provide
    Arbitrary<TableState> syncInFlight() {
        return Arbitraries.of(new TableState.Probing(TableState.DropPath.SYNCHRONOUS),
                new TableState.Dropping(TableState.DropPath.SYNCHRONOUS));
    }

    @Provide
    Arbitrary<TableState> states() {
        return Arbitraries.oneOf(
                Arbitraries.of(new TableState.Absent(), new TableState.Active(), new TableState.Gone()),
                instants().map(TableState.Creating::new),
                dropPaths().map(TableState.Probing::new),
                dropPaths().map(TableState.Dropping::new),
                deleting().map(d -> d),
                instants().map(TableState.Restoring::new));
    }

    @Provide
    Arbitrary<TableEvent.DeleteRequested> deletes() {
        return Combinators.combine(instants(), delays()).as(TableEvent.DeleteRequested::new);
    }

    @Provide
    Arbitrary<TableEvent> events() {
        return Arbitraries.oneOf(
                Combinators.combine(instants(), delays()).as(TableEvent.CreateRequested::new),
                instants().map(TableEvent.ActivationCheck::new),
                deletes().map(d -> d),
                Combinators.combine(instants(), Arbitraries.of(true, false)).as(TableEvent.Probed::new),
                Combinators.combine(instants(), Arbitraries.of(DropOutcome.class)).as(TableEvent.DropFinished::new),
                Arbitraries.just(new TableEvent.CallerGaveUp()),
                instants().map(TableEvent.PollerPass::new),
                Combinators.combine(instants(), delays()).as(TableEvent.RestoreRequested::new),
                Combinators.combine(instants(), delays()).as(TableEvent.RestoreRenewed::new),
                Arbitraries.just(new TableEvent.RestoreCompleted()),
                Arbitraries.just(new TableEvent.RestoreAbandoned()),
                instants().map(TableEvent.RestoreCheck::new));
    }

    /** Sequences that mostly follow a plausible life, so deep states are reached often. */
    @Provide
    Arbitrary<List<TableEvent>> eventSequences() {
        return events().list().ofMinSize(1).ofMaxSize(30)
                .map(list -> {
                    List<TableEvent> withCreate = new ArrayList<>();
                    withCreate.add(new TableEvent.CreateRequested(T0, Duration.ZERO));
                    withCreate.add(new TableEvent.ActivationCheck(T0));
                    withCreate.addAll(list);
                    return withCreate;
                });
    }
}
