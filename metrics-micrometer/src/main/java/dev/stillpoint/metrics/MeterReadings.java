package dev.stillpoint.metrics;

import dev.stillpoint.ports.out.StorageEvents;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * X1's meters in a {@link SimpleMeterRegistry} of their own, read back as plain figures: what a program
 * that has no monitoring system (the command line's {@code --metrics}) prints when it ends. Its callers
 * see no Micrometer type, so only this module needs Micrometer on its class path.
 */
public final class MeterReadings {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final StillpointMeters meters = new StillpointMeters(registry);

    /**
     * What a storage is told to tell: pass it to the storage's config ({@code withEvents}).
     *
     * @return the events feeding these meters
     */
    public StorageEvents events() {
        return meters;
    }

    /**
     * Every meter now, in name then tag order.
     *
     * @return one reading per meter
     */
    public List<Reading> read() {
        List<Reading> out = new ArrayList<>();
        for (Meter meter : registry.getMeters()) {
            Map<String, String> tags = new TreeMap<>();
            for (Tag tag : meter.getId().getTags()) {
                tags.put(tag.getKey(), tag.getValue());
            }
            Map<String, Double> values = new LinkedHashMap<>();
            for (Measurement m : meter.measure()) {
                values.put(m.getStatistic().name().toLowerCase(Locale.ROOT), m.getValue());
            }
            out.add(new Reading(meter.getId().getName(), tags, values));
        }
        out.sort(Comparator.comparing(Reading::name).thenComparing(r -> r.tags().toString()));
        return out;
    }

    /**
     * One meter's figures.
     *
     * @param name   the meter's name, e.g. {@code stillpoint.writes}
     * @param tags   its tags, by key
     * @param values its measurements by statistic, lower case ({@code count}, {@code value},
     *               {@code total_time} in seconds, {@code max})
     */
    public record Reading(String name, Map<String, String> tags, Map<String, Double> values) {

        /**
         * One line: {@code name{key=value,...} statistic=figure ...}.
         *
         * @return the reading as text
         */
        public String text() {
            StringBuilder b = new StringBuilder(name);
            if (!tags.isEmpty()) {
                b.append('{');
                tags.forEach((k, v) -> b.append(b.charAt(b.length() - 1) == '{' ? "" : ",").append(k).append('=').append(v));
                b.append('}');
            }
            values.forEach((k, v) -> b.append(' ').append(k).append('=').append(figure(v)));
            return b.toString();
        }

        private static String figure(double v) {
            return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
        }
    }
}
