package dev.stillpoint.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code stillpoint} command line: the main job ({@code demo}) and the tools to drive a database by hand. */
@Command(name = "stillpoint", mixinStandardHelpOptions = true, version = "stillpoint 0.1.0",
        description = "Stillpoint: the storage core of DynamoDB-compatible servers, on its embedded SQLite default.",
        subcommands = {DemoCommand.class, ExportCommand.class, RestoreCommand.class, CreateTableCommand.class, PutCommand.class,
            GetItemCommand.class, DeleteItemCommand.class, DescribeCommand.class, ListTablesCommand.class, DeleteTableCommand.class,
            UpdateTableCommand.class, MigrateCommand.class},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:success",
            "1:other storage error (validation, table not ACTIVE, internal)",
            "2:usage error",
            "3:table not found",
            "4:database file missing, unreadable, or not a (read-only commands: Stillpoint) database",
            "5:output directory not writable or not a directory",
            "6:not enough snapshot permits free (LimitExceeded): every one held, or export -j N above the backend's permits",
            "7:demo verification failed",
            "8:export: a stored item is not sound DynamoDB JSON for its row (E1)",
            "9:the backend does not do what was asked (Unsupported): export on Cassandra (C1), a change log on MongoDB or Cassandra, a write on a read-only opening",
            "10:restore: input missing or not an export of a known format and version (E3)",
            "11:restore: a checksum, item count or gzip stream does not match its manifest (E3)",
            "12:restore: a line is not an item, or its key is missing or of another type (E3)",
            "13:restore: the table name is in use; nothing created (E4)",
            "14:restore: failed or interrupted mid-way; the new table was removed (E5)",
            "15:get-item: no item has that key"})
public final class StillpointCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Where {@code --item-file -} and {@code --key-file -} read: stdin, or a test's stream. */
    java.io.InputStream in = System.in;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command line as {@link #main} runs it: a usage error (an unknown option, a missing one) under
     * {@code --json} answers with its JSON object on stdout too [X3]; without it, picocli's message and
     * usage on stderr as usual.
     */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new StillpointCommand());
        CommandLine.IParameterExceptionHandler usual = cli.getParameterExceptionHandler();
        cli.setParameterExceptionHandler((ex, args) -> {
            if (!java.util.Arrays.asList(args).contains("--json")) {
                return usual.handleParseException(ex, args);
            }
            CommandLine where = ex.getCommandLine();
            where.getErr().println("stillpoint " + where.getCommandName() + ": " + ex.getMessage());
            where.getErr().flush();
            com.fasterxml.jackson.databind.node.ObjectNode answer = CliCommand.JSON.createObjectNode();
            answer.put("command", where.getCommandName());
            answer.put("exitCode", ExitCodes.USAGE);
            com.fasterxml.jackson.databind.node.ObjectNode error = answer.putObject("error");
            error.put("reason", ExitCodes.reason(ExitCodes.USAGE));
            error.put("message", ex.getMessage());
            error.put("exitCode", ExitCodes.USAGE);
            where.getOut().println(answer);
            where.getOut().flush();
            return ExitCodes.USAGE;
        });
        return cli;
    }
}
