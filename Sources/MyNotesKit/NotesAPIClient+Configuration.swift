import Foundation
import MyNotesProtocol

extension NotesAPIClient {
    /// Everything a ``NotesAPIClient`` needs to know, with sensible defaults.
    ///
    /// ```swift
    /// var configuration = NotesAPIClient.Configuration(
    ///     server: URL(string: "https://notes.example.com")!, token: token)
    /// configuration.timeout = .seconds(10)
    /// configuration.retry = .never
    /// let api = NotesAPIClient(configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The server's root, e.g. `https://notes.example.com/`; calls go to `…/api/v1/…`.
        public var server: URL
        /// The access token, sent as `Authorization: Bearer`; `nil` before signing in.
        public var token: String?
        /// How long one attempt may take, from sending to the last byte of the answer.
        public var timeout: Duration = .seconds(30)
        /// Retries for the reading calls (`notes`, `note`, `allNotes`); writes and
        /// sign-ins are never retried.
        public var retry: RetryPolicy = .default
        /// The clock that times each attempt and each wait before a retry. Tests give
        /// the client a clock they advance by hand, instead of waiting for real time.
        public var clock: any Clock<Duration> = ContinuousClock()
        /// The language of the server's problem `detail` (`Accept-Language`).
        public var language: MessageLanguage

        /// Creates a configuration with the defaults: 30 s, three attempts for reads.
        ///
        /// - Parameter language: the language of the server's messages; by default the
        ///   one `LANG` (or the current locale) names.
        public init(server: URL, token: String? = nil, language: MessageLanguage? = nil) {
            self.server = server
            self.token = token
            self.language = language ?? .preferred
        }

        /// The API's root, `…/api/v1`.
        public var baseURL: URL {
            server.appendingPathComponent("api").appendingPathComponent("v1")
        }
    }
}

extension MessageLanguage {
    /// The language `LANG` (or else the current locale) names.
    static var preferred: MessageLanguage {
        MessageLanguage(
            localeIdentifier: ProcessInfo.processInfo.environment["LANG"]
                ?? Locale.current.identifier)
    }
}
