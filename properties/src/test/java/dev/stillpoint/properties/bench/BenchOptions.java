package dev.stillpoint.properties.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/** A benchmark's command line: {@code --name value} pairs, and {@code --flag} alone as an empty value. */
public final class BenchOptions {

    private BenchOptions() {
    }

    /** The options in their order; fails on an argument that is not an option's name or value. */
    public static Map<String, String> parse(String[] args) {
        Map<String, String> opt = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + a);
            }
            String name = a.substring(2);
            if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                opt.put(name, args[++i]);
            } else {
                opt.put(name, "");
            }
        }
        return opt;
    }
}
