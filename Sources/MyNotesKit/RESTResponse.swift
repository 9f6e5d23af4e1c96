import Foundation
import MyNotesAPI
import MyNotesProtocol

/// Reading REST API v1 answers: the expected status and JSON, or the typed error.
enum RESTResponse {
    /// The body as `Body` when the status is `expected`; otherwise the failure it means.
    static func decode<Body: Decodable>(
        _ answer: HTTPAnswer, expecting expected: Int, as type: Body.Type
    ) throws(NotesClientError) -> Body {
        try check(answer, expecting: expected)
        do {
            return try JSONDecoder().decode(Body.self, from: answer.body)
        } catch {
            throw .invalidResponse(.malformed(format: .json, detail: String(describing: error)))
        }
    }

    /// Nothing, when the status is `expected`; otherwise the failure it means.
    static func check(_ answer: HTTPAnswer, expecting expected: Int) throws(NotesClientError) {
        guard answer.status != expected else { return }
        throw failure(answer)
    }

    /// A note answer, with the `ETag` of the answer.
    static func note(_ answer: HTTPAnswer, expecting expected: Int) throws(NotesClientError)
        -> VersionedNote
    {
        try decode(answer, expecting: expected, as: APINote.self)
            .versioned(etag: answer.header("ETag"))
    }

    /// The typed error for a status the call did not expect: `.rest` with the problem the
    /// server sent, or `.http` when the body is not a problem.
    static func failure(_ answer: HTTPAnswer) -> NotesClientError {
        let isProblem =
            answer.header("Content-Type")?.lowercased().contains("problem+json") ?? false
        guard let wire = try? JSONDecoder().decode(APIProblem.self, from: answer.body),
            isProblem || (wire.status != nil && wire.code != nil)
        else {
            return .http(status: answer.status, body: answer.bodyExcerpt)
        }
        let problem = ProblemDetails(
            type: wire.type ?? "about:blank", title: wire.title ?? "",
            status: wire.status ?? answer.status, code: wire.code ?? answer.status,
            detail: wire.detail ?? "",
            language: answer.header("Content-Language").map {
                MessageLanguage(acceptLanguage: $0)
            })
        return .rest(
            .init(
                status: answer.status, problem: problem,
                retryAfter: retryAfter(answer.header("Retry-After"))))
    }

    /// `Retry-After` as delay-seconds or as an HTTP date (RFC 9110 §10.2.3).
    static func retryAfter(_ text: String?, now: Date = Date()) -> Duration? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return nil
        }
        if text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int(text) {
            return .seconds(seconds)
        }
        // An HTTP date is ASCII; DateFormatter traps on some other text ("W\u{328}").
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: text) else { return nil }
        return .milliseconds(max(0, Int((date.timeIntervalSince(now) * 1000).rounded(.up))))
    }

    /// An RFC 3339 time such as `2026-11-29T08:15:30.250Z`, with or without fractions.
    static func timestamp(_ text: String) -> Date? {
        if let date = try? Date(
            text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        {
            return date
        }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }
}
