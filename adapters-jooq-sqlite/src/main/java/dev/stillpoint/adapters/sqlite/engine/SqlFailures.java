package dev.stillpoint.adapters.sqlite.engine;

import dev.stillpoint.domain.error.DriverText;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import java.sql.SQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Maps SQLite's errors into the closed set [D10], keeping SQLite's own code name and message. */
final class SqlFailures {

    private SqlFailures() {
    }

    static StorageException map(String doing, SQLException e) {
        if (e instanceof SQLiteException s) {
            SQLiteErrorCode code = s.getResultCode();
            ErrorReason reason = switch (code.code & 0xFF) {
                case 5, 6 -> ErrorReason.TRANSIENT;            // SQLITE_BUSY, SQLITE_LOCKED
                case 13 -> ErrorReason.TRANSIENT;              // SQLITE_FULL
                case 19 -> ErrorReason.VALIDATION;             // SQLITE_CONSTRAINT
                default -> ErrorReason.INTERNAL;
            };
            return new StorageException(reason, doing + ": " + code.name() + ": " + DriverText.firstLine(s.getMessage()),
                    e);
        }
        return new StorageException(ErrorReason.INTERNAL, doing + ": " + DriverText.firstLine(e.getMessage()), e);
    }

    static StorageException map(String doing, RuntimeException e) {
        if (e instanceof StorageException s) {
            return s;
        }
        if (e instanceof org.jooq.exception.DataAccessException d && d.getCause() instanceof SQLException sql) {
            return map(doing, sql);
        }
        return new StorageException(ErrorReason.INTERNAL, doing + ": " + DriverText.firstLine(e.getMessage()), e);
    }
}
