package dev.stillpoint.cli;

import dev.stillpoint.domain.error.StorageException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * A subcommand whose failures end as one line on stderr ({@code stillpoint NAME: message}) and a
 * distinct exit code ({@link ExitCodes}), never a stack trace.
 */
abstract class CliCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public final Integer call() {
        return guarded(this::run);
    }

    /** Runs {@code body}, turning every failure into its line on stderr and its exit code. */
    int guarded(java.util.function.IntSupplier body) {
        try {
            return body.getAsInt();
        } catch (CliFailure f) {
            return fail(f.exitCode(), f.getMessage());
        } catch (StorageException e) {
            return fail(ExitCodes.of(e), message(e));
        } catch (RuntimeException e) {
            // No Java class name in what a user reads [R6]; the stack goes to the log for whoever debugs it.
            org.slf4j.LoggerFactory.getLogger(CliCommand.class).debug("unexpected failure", e);
            return fail(ExitCodes.STORAGE_ERROR, "unexpected internal failure: " + e.getMessage());
        }
    }

    /** The command's work; returns its exit code. */
    abstract int run();

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** The command line's stdin (the root command's stream, so a test can hand one in). */
    java.io.InputStream in() {
        return spec.root().userObject() instanceof StillpointCommand root ? root.in : System.in;
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** {@code text} as it may be printed; a command on a server removes the URL's credentials [issue 14]. */
    String scrub(String text) {
        return text;
    }

    int fail(int code, String message) {
        PrintWriter err = err();
        err.println("stillpoint " + spec.name() + ": " + scrub(message));
        err.flush();
        return code;
    }

    /** A storage failure as one line: the message and the API error name a server would answer with. */
    static String message(StorageException e) {
        return e.getMessage() + " [" + e.reason().apiErrorName() + "]";
    }
}
