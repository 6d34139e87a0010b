package dev.stillpoint.properties.kit;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.ports.out.ReadObserver;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;

/**
 * Skips the snapshot checks of a backend that refuses snapshots by design [C1], with the reason the
 * backend itself gives: it is asked for a snapshot of a table that does not exist, which is
 * TableNotFound on a backend with snapshots and Unsupported on one without. The checks then show in
 * the report as skipped with that reason, never absent and never passed; the DeleteTable checks the
 * kit inherits still run. Asked once per kit class per JVM.
 */
public final class SnapshotSupport implements SkipExecutionHook {

    private static final Map<String, Optional<String>> REFUSALS = new ConcurrentHashMap<>();

    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
        Optional<Method> check = context.optionalElement().filter(Method.class::isInstance).map(Method.class::cast);
        Optional<Class<?>> container = context.optionalContainerClass();
        if (check.isEmpty() || container.isEmpty() || !SnapshotConformanceKit.class.isAssignableFrom(container.get())) {
            return SkipResult.doNotSkip();
        }
        Optional<String> refusal = REFUSALS.computeIfAbsent(container.get().getName(),
                name -> ask(((SnapshotConformanceKit) context.newInstance(container.get())).fixture()));
        return refusal.map(SkipResult::skip).orElse(SkipResult.doNotSkip());
    }

    private static Optional<String> ask(ConformanceFixture fixture) {
        try (KitEngine engine = fixture.start(new KitSettings(PageBudget.DEFAULT, ReadObserver.NONE, Duration.ZERO))) {
            TableSnapshot snapshot = engine.snapshots().openTableSnapshot(KitSupport.ACCOUNT,
                    KitSupport.uniqueName("snapshot_support"));
            snapshot.close();
            throw new AssertionError("[K6] " + fixture.backendName() + " opened a snapshot of a table that does not exist");
        } catch (StorageException e) {
            if (e.reason() == ErrorReason.UNSUPPORTED) {
                return Optional.of("[C1] " + fixture.backendName() + " declares snapshots unsupported, so this"
                        + " snapshot check does not apply: " + e.getMessage());
            }
            if (e.reason() == ErrorReason.TABLE_NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
