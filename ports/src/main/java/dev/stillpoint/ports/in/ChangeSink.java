package dev.stillpoint.ports.in;

/**
 * Where a streamed read of a change log window puts what it reads [I2], so that a window of any size is
 * read holding one page of changes, not all of them [S7]: first the window, then each change, while the
 * read's transaction is open. A sink that fails (a full disk) ends the read with its exception, which the
 * read passes on unchanged when it is a {@code StorageException}.
 */
public interface ChangeSink {

    /**
     * The window, once its end snapshot is taken and its start marker accepted [I4]; called once, before any
     * change.
     *
     * @param window the table and both markers
     */
    void begin(ChangeWindow window);

    /**
     * One key's net change in the window; called once per key changed, in key order where the backend
     * orders keys.
     *
     * @param change the change
     */
    void change(LoggedChange change);
}
