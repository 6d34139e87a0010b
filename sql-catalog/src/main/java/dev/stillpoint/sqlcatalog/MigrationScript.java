package dev.stillpoint.sqlcatalog;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One versioned catalog script, a classpath resource {@code V<n>__<description>.sql}. */
public record MigrationScript(int version, String resource) {

    private static final Pattern FILE = Pattern.compile("(?:.*/)?V([1-9][0-9]{0,8})__[A-Za-z0-9_]+\\.sql");

    /** Checks the version: they start at 1. */
    public MigrationScript {
        Objects.requireNonNull(resource, "resource");
        if (version < 1) {
            throw new IllegalArgumentException("migration versions start at 1: " + version);
        }
    }

    /** A script whose version is read from its file name, {@code V<n>__<description>.sql}. */
    public static MigrationScript of(String resource) {
        Matcher m = FILE.matcher(resource);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a migration file name V<n>__<description>.sql: " + resource);
        }
        return new MigrationScript(Integer.parseInt(m.group(1)), resource);
    }
}
