package dev.stillpoint.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stillpoint.domain.error.StorageException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * A subcommand whose failures end as one line on stderr ({@code stillpoint NAME: message}) and a
 * distinct exit code ({@link ExitCodes}), never a stack trace. With {@code --json} [X3] its text on
 * stdout is replaced by one JSON object: {@code command}, {@code exitCode}, the figures the command
 * put in {@link #answer}, and on failure {@code error} with its reason, message and exit code.
 */
abstract class CliCommand implements Callable<Integer> {

    /** Writes the JSON answers: one object on one line. */
    static final ObjectMapper JSON = new ObjectMapper();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    JsonOption json = new JsonOption();

    /** The command's figures for {@code --json}; commands add to it as they go. */
    final ObjectNode answer = JSON.createObjectNode();

    private final PrintWriter discard = new PrintWriter(Writer.nullWriter());

    @Override
    public final Integer call() {
        int code = guarded(this::run);
        atExit();
        if (json.on) {
            ObjectNode whole = JSON.createObjectNode();
            whole.put("command", spec.name());
            whole.put("exitCode", code);
            whole.setAll(answer);
            PrintWriter out = spec.commandLine().getOut();
            out.println(scrub(whole.toString()));
            out.flush();
        }
        return code;
    }

    /** Runs {@code body}, turning every failure into its line on stderr and its exit code. */
    int guarded(java.util.function.IntSupplier body) {
        try {
            return body.getAsInt();
        } catch (CliFailure f) {
            return fail(f.exitCode(), ExitCodes.reason(f.exitCode()), f.getMessage());
        } catch (StorageException e) {
            return fail(ExitCodes.of(e), e.reason().name(), message(e));
        } catch (RuntimeException e) {
            // No Java class name in what a user reads [R6]; the stack goes to the log for whoever debugs it.
            org.slf4j.LoggerFactory.getLogger(CliCommand.class).debug("unexpected failure", e);
            return fail(ExitCodes.STORAGE_ERROR, "INTERNAL", "unexpected internal failure: " + e.getMessage());
        }
    }

    /** After the work, whatever its outcome, before the JSON answer is written (a storage command's --metrics). */
    void atExit() {
    }

    /** The command's work; returns its exit code. */
    abstract int run();

    /** Where the command's text goes: stdout, or nowhere under {@code --json} (the answer replaces it). */
    PrintWriter out() {
        return json.on ? discard : spec.commandLine().getOut();
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
        return fail(code, ExitCodes.reason(code), message);
    }

    /** The failure's line on stderr, and under {@code --json} its {@code error} object. */
    int fail(int code, String reason, String message) {
        PrintWriter err = err();
        err.println("stillpoint " + spec.name() + ": " + scrub(message));
        err.flush();
        ObjectNode error = answer.putObject("error");
        error.put("reason", reason);
        error.put("message", scrub(message));
        error.put("exitCode", code);
        return code;
    }

    /** A storage failure as one line: the message and the API error name a server would answer with. */
    static String message(StorageException e) {
        return e.getMessage() + " [" + e.reason().apiErrorName() + "]";
    }
}
