import CommandLineSupport

/// What `backup` and `restore` take: a `sqlite:` database and the file to copy it to or
/// from (`--to FILE`, `--from FILE`), which is required.
struct BackupArguments {
    let database: String
    let file: String

    static func options(file option: String, _ help: String) -> [OptionSpec] {
        [DatabaseOption.spec, .value(option, "FILE", help)]
    }

    init(
        _ arguments: ParsedArguments, command: String, file option: String, meaning: String
    ) throws(UsageError) {
        database = try DatabaseOption.sqlitePath(arguments, for: command)
        guard let file = arguments.value(option), !file.isEmpty else {
            throw UsageError("option '\(option)' is required: \(meaning)")
        }
        self.file = file
    }
}
