package dev.stillpoint.sqlcatalog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The banner is off unless the embedder said otherwise, and an embedder's own value is never replaced. */
class JooqBannerTest {

    private final String logo = System.getProperty(JooqBanner.NO_LOGO);
    private final String tips = System.getProperty(JooqBanner.NO_TIPS);
    private final String versionLine = System.getProperty(JooqBanner.VERSION_LINE);

    @AfterEach
    void restore() {
        put(JooqBanner.NO_LOGO, logo);
        put(JooqBanner.NO_TIPS, tips);
        put(JooqBanner.VERSION_LINE, versionLine);
    }

    private static void put(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    @Test
    void unsetPropertiesAreSetTrue() {
        System.clearProperty(JooqBanner.NO_LOGO);
        System.clearProperty(JooqBanner.NO_TIPS);
        System.clearProperty(JooqBanner.VERSION_LINE);
        JooqBanner.off();
        assertThat(System.getProperty(JooqBanner.VERSION_LINE)).as("the version line's logger threshold").isEqualTo("WARN");
        assertThat(System.getProperty(JooqBanner.NO_LOGO)).as("org.jooq.no-logo").isEqualTo("true");
        assertThat(System.getProperty(JooqBanner.NO_TIPS)).as("org.jooq.no-tips").isEqualTo("true");
    }

    @Test
    void anEmbeddersOwnValueIsLeftAsItIs() {
        System.setProperty(JooqBanner.NO_LOGO, "false");
        System.clearProperty(JooqBanner.NO_TIPS);
        JooqBanner.off();
        assertThat(System.getProperty(JooqBanner.NO_LOGO)).as("the embedder's org.jooq.no-logo").isEqualTo("false");
        assertThat(System.getProperty(JooqBanner.NO_TIPS)).as("org.jooq.no-tips").isEqualTo("true");
    }
}
