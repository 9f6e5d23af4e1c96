import CommandLineSupport

/// The commands of `mynotes-server`; `serve` runs when the arguments start with an option.
enum ServerCommandLine {
    static let program = CommandLineProgram(
        version: "1.0.0",
        root: CommandGroup(
            name: "mynotes-server",
            abstract: """
                The MyNotes web service: the legacy webservice.php protocol and REST API v1 over
                HTTP, notes in SQLite or PostgreSQL.
                """,
            subcommands: [
                .command(ServeCommand.self),
                .group(
                    CommandGroup(
                        name: "accounts", abstract: "Manage the accounts in the database.",
                        subcommands: [
                            .command(AccountsAddCommand.self), .command(AccountsListCommand.self),
                            .command(AccountsRemoveCommand.self),
                            .command(AccountsResetTokenCommand.self),
                            .command(AccountsSetPasswordCommand.self),
                        ])),
                // Copies every account and note from SQLite to PostgreSQL or back.
                .command(MigrateCommand.self),
                // Operations: backup, restore and checking a database.
                .command(BackupCommand.self), .command(RestoreCommand.self),
                .command(DoctorCommand.self),
            ],
            defaultCommand: ServeCommand.self))
}
