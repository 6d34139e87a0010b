package dev.stillpoint.backup;

/** The two layouts an export writes and a restore reads [E2]. */
public enum ExportFormat {
    /** Ours: {@code manifest.json} (description, snapshot, count, sha256) and {@code items.jsonl}. */
    STILLPOINT,
    /**
     * DynamoDB's DYNAMODB_JSON export layout: {@code manifest-summary.json}, {@code manifest-files.json}
     * and gzipped data files of {@code {"Item": ...}} lines under {@code data/}.
     */
    DYNAMODB
}
