package dev.stillpoint.backup;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.KeySchema;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * Finds the items of a restore input that share a key [V4], keys compared as DynamoDB compares them:
 * a number by its value ({@code 170} and {@code 170000E-3} are one key), a string and a binary by their
 * bytes. Each item is recorded as a fixed-size entry: the first 128 bits of the SHA-256 of its key in a
 * canonical form (type, then the normalised number text, the UTF-8 string or the bytes, each with its
 * length) and its place (file and line). Two keys with one digest are taken as one key: at 10^8 items the
 * chance that two different keys share 128 bits is about 10^-23.
 *
 * <p>Memory is bounded whatever the input's size: up to {@value #IN_MEMORY} entries (24 MiB) are kept in
 * memory; past that every entry goes to one of {@value #PARTITIONS} partition files on disk by its digest's
 * first byte (24 bytes an entry: 2.4 GB of temporary disk at 100M items), and each partition is then read
 * back alone (about 9 MiB at 100M items, 1/256th of the entries) into an open-addressing table of primitive
 * arrays. The partition files live in a temporary directory removed by {@link #close}.
 */
final class KeyDigests implements AutoCloseable {
    /** Entries kept in memory before they are spilled to partition files. */
    static final int IN_MEMORY = 1 << 20;
    /** Partition files once spilled: one per value of the digest's first byte. */
    static final int PARTITIONS = 256;

    /** One pair of lines holding one key; {@code first} comes before {@code second} in the input. */
    record Duplicate(long first, long second) {
    }

    private final KeySchema schema;
    private final MessageDigest sha = TableExport.sha256();
    private final int inMemory;
    private long[] hi;
    private long[] lo;
    private long[] at;
    private int held;
    private long count;
    private Path spillDir;
    private DataOutputStream[] partitions;

    /**
     * @param schema the key every item is compared under
     */
    KeyDigests(KeySchema schema) {
        this(schema, IN_MEMORY);
    }

    /** As above, spilling past {@code inMemory} entries (small in tests, so the disk path runs too). */
    KeyDigests(KeySchema schema, int inMemory) {
        this.schema = schema;
        this.inMemory = inMemory;
        int initial = Math.min(inMemory, 1 << 12);
        hi = new long[initial];
        lo = new long[initial];
        at = new long[initial];
    }

    /** A place in the input: the file's index (from 0) in the high 24 bits, the line (from 1) below. */
    static long place(int file, long line) {
        return ((long) file << 40) | line;
    }

    static int file(long place) {
        return (int) (place >>> 40);
    }

    static long line(long place) {
        return place & ((1L << 40) - 1);
    }

    /** Records the key of {@code item}, read at {@code place}; places come in input order. */
    void add(Item item, long place) {
        sha.reset();
        canonical(item.get(schema.partitionKey()));
        schema.sortKey().ifPresent(s -> canonical(item.get(s)));
        byte[] d = sha.digest();
        long h = bytesToLong(d, 0);
        long l = bytesToLong(d, 8);
        count++;
        if (partitions != null) {
            spill(h, l, place);
            return;
        }
        if (held == hi.length) {
            if (held >= inMemory) {
                startSpilling();
                spill(h, l, place);
                return;
            }
            int grown = Math.min(inMemory, hi.length * 2);
            hi = Arrays.copyOf(hi, grown);
            lo = Arrays.copyOf(lo, grown);
            at = Arrays.copyOf(at, grown);
        }
        hi[held] = h;
        lo[held] = l;
        at[held] = place;
        held++;
    }

    /** @return the keys recorded */
    long count() {
        return count;
    }

    /**
     * Every line whose key an earlier line holds, as (earlier, later) pairs sorted by the later line: for a
     * key on n lines, n - 1 pairs, each later line paired with the one before it.
     */
    long[] collapsed(java.util.function.Consumer<Duplicate> duplicates) {
        LongList later = new LongList();
        if (partitions == null) {
            findIn(hi, lo, at, held, duplicates, later);
        } else {
            closePartitions();
            for (int p = 0; p < PARTITIONS; p++) {
                readPartition(p, duplicates, later);
            }
        }
        long[] out = later.toArray();
        Arrays.sort(out);
        return out;
    }

    private void readPartition(int p, java.util.function.Consumer<Duplicate> duplicates, LongList later) {
        Path file = spillDir.resolve("p" + p);
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int n = Math.toIntExact(size / 24);
        long[] h = new long[n];
        long[] l = new long[n];
        long[] a = new long[n];
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            for (int i = 0; i < n; i++) {
                h[i] = in.readLong();
                l[i] = in.readLong();
                a[i] = in.readLong();
            }
        } catch (EOFException e) {
            throw new IllegalStateException("partition file " + file + " is shorter than its " + n + " entries", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        findIn(h, l, a, n, duplicates, later);
    }

    /** Open addressing over the entries' indexes; entries arrive in input order, so a hit is an earlier line. */
    private static void findIn(long[] h, long[] l, long[] a, int n, java.util.function.Consumer<Duplicate> duplicates,
                               LongList later) {
        int capacity = Integer.highestOneBit(Math.max(2, n) * 2 - 1) << 1;
        int[] slots = new int[capacity];
        Arrays.fill(slots, -1);
        int mask = capacity - 1;
        for (int i = 0; i < n; i++) {
            int slot = (int) (h[i] ^ (h[i] >>> 32)) & mask;
            while (true) {
                int j = slots[slot];
                if (j < 0) {
                    slots[slot] = i;
                    break;
                }
                if (h[j] == h[i] && l[j] == l[i]) {
                    duplicates.accept(new Duplicate(a[j], a[i]));
                    later.add(a[j]);
                    slots[slot] = i; // the next line with this key is paired with this one, the latest so far
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
    }

    private void startSpilling() {
        try {
            spillDir = Files.createTempDirectory("stillpoint-restore-keys-");
            partitions = new DataOutputStream[PARTITIONS];
            for (int p = 0; p < PARTITIONS; p++) {
                partitions[p] = new DataOutputStream(new BufferedOutputStream(
                        Files.newOutputStream(spillDir.resolve("p" + p)), 1 << 13));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spill the keys of the restore input to a temporary directory", e);
        }
        for (int i = 0; i < held; i++) {
            spill(hi[i], lo[i], at[i]);
        }
        hi = lo = at = new long[0];
        held = 0;
    }

    private void spill(long h, long l, long place) {
        try {
            DataOutputStream out = partitions[(int) (h >>> 56)];
            out.writeLong(h);
            out.writeLong(l);
            out.writeLong(place);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spill the keys of the restore input", e);
        }
    }

    private void closePartitions() {
        try {
            for (DataOutputStream out : partitions) {
                out.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes the partition files, if any were written. */
    @Override
    public void close() {
        if (spillDir == null) {
            return;
        }
        try {
            for (DataOutputStream out : partitions) {
                try {
                    out.close();
                } catch (IOException ignored) {
                    // Removed below either way.
                }
            }
            try (var files = Files.list(spillDir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(spillDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + spillDir, e);
        }
    }

    /** Feeds the canonical form of one key value: its type, then its length and content. */
    private void canonical(AttributeValue value) {
        byte[] content;
        byte type;
        if (value instanceof AttributeValue.N n) {
            type = 'N';
            content = DynamoNumber.tryNormalise(n.text()).orElse(n.text()).getBytes(StandardCharsets.UTF_8);
        } else if (value instanceof AttributeValue.S s) {
            type = 'S';
            content = s.value().getBytes(StandardCharsets.UTF_8);
        } else if (value instanceof AttributeValue.B b) {
            type = 'B';
            content = b.bytes();
        } else {
            // The item check let only S, N and B keys through; anything else is compared by its type alone.
            type = '?';
            content = value.typeName().getBytes(StandardCharsets.UTF_8);
        }
        sha.update(type);
        sha.update((byte) (content.length >>> 24));
        sha.update((byte) (content.length >>> 16));
        sha.update((byte) (content.length >>> 8));
        sha.update((byte) content.length);
        sha.update(content);
    }

    private static long bytesToLong(byte[] b, int from) {
        long v = 0;
        for (int i = from; i < from + 8; i++) {
            v = (v << 8) | (b[i] & 0xff);
        }
        return v;
    }

    /** A growable list of longs, so the collapsed lines take 8 bytes each. */
    private static final class LongList {
        private long[] values = new long[16];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        long[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
