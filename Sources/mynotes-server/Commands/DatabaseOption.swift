import CommandLineSupport
import Foundation
import Storage

/// `--database sqlite:PATH`, shared by every command that opens the store.
enum DatabaseOption {
    static let name = "--database"
    static let environmentVariable = "MYNOTES_DATABASE"
    static let defaultValue = "sqlite:./mynotes.sqlite"
    static let spec = OptionSpec.value(
        name, "sqlite:PATH", "The database (env MYNOTES_DATABASE; default \(defaultValue)).",
        short: "-d")

    static func location(_ arguments: ParsedArguments) throws(UsageError) -> StoreLocation {
        let text =
            arguments.value(name) ?? arguments.environment[environmentVariable] ?? defaultValue
        do {
            return try StoreLocation(parsing: text)
        } catch {
            throw UsageError("option '\(name)' must be sqlite:PATH, not '\(text)'")
        }
    }

    static func open(_ location: StoreLocation) throws(CommandFailure) -> any NoteStore {
        do {
            return try location.open(indexing: searchIndexProgress())
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// Building the search index over a large database takes a while (about a minute per
    /// million short notes): its progress goes to stderr, every 5%.
    private static func searchIndexProgress() -> (SearchIndexProgress) -> Void {
        var shown = -1
        return { progress in
            let percent = progress.total == 0 ? 100 : progress.indexed * 100 / progress.total
            guard percent / 5 != shown / 5 || progress.indexed == progress.total else { return }
            shown = percent
            FileHandle.standardError.write(
                Data(
                    "mynotes-server: building the search index: \(progress.indexed) of \(progress.total) notes (\(percent)%)\n"
                        .utf8))
        }
    }
}
