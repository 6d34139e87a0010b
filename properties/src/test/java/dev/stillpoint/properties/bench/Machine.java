package dev.stillpoint.properties.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What a benchmark prints about the machine beside its figures. JDK only. */
public final class Machine {

    private Machine() {
    }

    /** The 1, 5 and 15 minute load averages from {@code /proc/loadavg}, or "?" where there is none. */
    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
