import CommandLineSupport
import Foundation
import MyNotesKit
import MyNotesProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension CommandFailure {
    /// The failure the server, the network or the SDK reported, in the user's language,
    /// with the protocol's result code when there is one. Failures to reach the server,
    /// and answers that show it is not a MyNotes server, name the `server`.
    init(_ error: NotesClientError, in language: MessageLanguage, server: URL? = nil) {
        if let code = error.resultCode {
            self.init(error.message(in: language) + " (ResultCode \(code.rawValue))")
        } else if let server, let message = Self.naming(server, error, language == .chinese) {
            self.init(message)
        } else {
            self.init(error.message(in: language))
        }
    }

    /// The messages that need the server's address to be acted on.
    private static func naming(_ server: URL, _ error: NotesClientError, _ chinese: Bool)
        -> String?
    {
        let address = server.absoluteString
        let host = server.host ?? address
        switch error {
        case .transport(.cannotConnect(let failure))
        where [.cannotFindHost, .dnsLookupFailed].contains(failure.code):
            return chinese
                ? "找不到服务器 \(host)：没有这个主机名（--server \(address)）。"
                : "Could not find the server \(host): no such host name (--server \(address))."
        case .transport(.cannotConnect):
            return chinese
                ? "无法连接到服务器 \(address)：那里没有服务在运行，或者无法到达。"
                : "Could not connect to the server at \(address): nothing answers there, "
                    + "or it cannot be reached."
        case .transport(.connectionLost):
            return chinese
                ? "与服务器 \(address) 的连接中断了。" : "The connection to the server at \(address) was lost."
        case .timedOut:
            return chinese
                ? "服务器 \(address) 没有及时回答（--timeout）。"
                : "The server at \(address) did not answer in time (--timeout)."
        case .http(404, _):
            return chinese
                ? "\(address) 返回了 HTTP 404：这不像是 MyNotes 服务器的地址（检查 --server）。"
                : "\(address) answered HTTP 404 (not found): it does not look like a MyNotes "
                    + "server's address (check --server)."
        default:
            return nil
        }
    }
}

/// Runs a client call, turning its error into the command's; `server` is named in
/// the failures that need it.
func calling<Value>(
    in language: MessageLanguage, server: URL? = nil,
    _ body: () async throws(NotesClientError) -> Value
) async throws(CommandFailure) -> Value {
    do {
        return try await body()
    } catch {
        throw CommandFailure(error, in: language, server: server)
    }
}
