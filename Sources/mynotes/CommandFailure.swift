import MyNotesKit
import MyNotesProtocol

/// A command that ran and failed; `mynotes` prints the message and exits with status 1.
enum CommandFailure: Error {
    /// The server, the network or the SDK reported the failure.
    case client(NotesClientError)
    /// Anything else, already worded for people.
    case message(String)

    func text(in language: MessageLanguage) -> String {
        switch self {
        case .client(let error):
            if let code = error.resultCode {
                return error.message(in: language) + " (ResultCode \(code.rawValue))"
            }
            return error.message(in: language)
        case .message(let text): return text
        }
    }
}

/// Runs a client call, turning its error into the command's.
func calling<Value>(_ body: () async throws(NotesClientError) -> Value) async throws(CommandFailure)
    -> Value
{
    do {
        return try await body()
    } catch {
        throw .client(error)
    }
}
