package dev.stillpoint.properties.kit.selftest;

import dev.stillpoint.properties.kit.ConformanceFixture;
import dev.stillpoint.properties.kit.RequestRulesKit;
import dev.stillpoint.properties.kit.SnapshotConformanceKit;

/** The kit against the correct reference adapter: every check must pass. */
class ReferenceConformanceProperties implements SnapshotConformanceKit, RequestRulesKit {

    private final ConformanceFixture fixture = new ReferenceFixture(Flaw.NONE);

    @Override
    public ConformanceFixture fixture() {
        return fixture;
    }
}
