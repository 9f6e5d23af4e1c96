import Foundation
import MyNotesProtocol

extension NotesClient {
    /// Everything a ``NotesClient`` needs to know, with sensible defaults.
    ///
    /// ```swift
    /// var configuration = NotesClient.Configuration(
    ///     server: URL(string: "https://notes.example.com")!,
    ///     credentials: .token(email: "ann@example.com", token: token))
    /// configuration.method = .get
    /// configuration.wire = .xml
    /// configuration.timeout = .seconds(10)
    /// ```
    public struct Configuration: Sendable {
        /// The server: its root (`https://host/`, the client adds `mynotes/webservice.php`)
        /// or the full endpoint URL ending in `webservice.php`.
        public var server: URL
        /// Who the client acts for.
        public var credentials: Credentials
        /// GET or POST; POST by default, since only POST can carry the longest notes.
        public var method: RequestMethod = .post
        /// The response format to ask for.
        public var wire: WireFormat = .json
        /// How long one attempt may take, from sending to the last byte of the answer.
        public var timeout: Duration = .seconds(30)
        /// Retries for `query`; writes are never retried.
        public var retry: RetryPolicy = .default
        /// The clock that times each attempt and each wait before a retry. Tests give
        /// the client a clock they advance by hand, instead of waiting for real time.
        public var clock: any Clock<Duration> = ContinuousClock()
        /// The language the server should write its messages in (`Accept-Language`).
        public var language: MessageLanguage

        /// Creates a configuration with the defaults: POST, JSON, 30 s, three attempts for `query`.
        ///
        /// - Parameter language: the language of the server's messages; by default the
        ///   one `LANG` (or the current locale) names.
        public init(server: URL, credentials: Credentials, language: MessageLanguage? = nil) {
            self.server = server
            self.credentials = credentials
            self.language = language ?? .preferred
        }

        /// The legacy endpoint's URL.
        public var endpoint: URL {
            if server.lastPathComponent.lowercased() == "webservice.php" { return server }
            return server.appendingPathComponent("mynotes").appendingPathComponent("webservice.php")
        }
    }
}
