-- Why a DELETING table waits (the lifecycle's DropRetry): SCHEDULED (a delay of a second or more),
-- DEFERRED (a holder or a lock wait: retried about once a second), FAILED (another failure: retried
-- on the idle sweep). NULL for CREATING and ACTIVE rows.
ALTER TABLE sp_tables ADD COLUMN drop_retry TEXT CHECK (drop_retry IN ('SCHEDULED', 'DEFERRED', 'FAILED'));
