package dev.stillpoint.properties.kit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Marks a check that needs snapshots: on a backend that refuses them by design [C1] it is reported
 * skipped with the backend's reason ({@link SnapshotSupport}). jqwik reads lifecycle hooks from the
 * check method, not from an interface the test class implements, hence one mark per check.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@AddLifecycleHook(SnapshotSupport.class)
public @interface SnapshotCheck {
}
