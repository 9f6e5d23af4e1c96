import CommandLineSupport
import MyNotesKit
import MyNotesProtocol

extension CommandFailure {
    /// The failure the server, the network or the SDK reported, in the user's language,
    /// with the protocol's result code when there is one.
    init(_ error: NotesClientError, in language: MessageLanguage) {
        if let code = error.resultCode {
            self.init(error.message(in: language) + " (ResultCode \(code.rawValue))")
        } else {
            self.init(error.message(in: language))
        }
    }
}

/// Runs a client call, turning its error into the command's.
func calling<Value>(
    in language: MessageLanguage, _ body: () async throws(NotesClientError) -> Value
) async throws(CommandFailure) -> Value {
    do {
        return try await body()
    } catch {
        throw CommandFailure(error, in: language)
    }
}
