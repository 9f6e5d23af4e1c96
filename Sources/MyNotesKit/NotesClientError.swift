import Foundation
import MyNotesProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every way a ``NotesClient`` or ``NotesAPIClient`` call can fail, in one type.
///
/// A failure the server reports carries its stable ``ResultCode`` (the legacy protocol's,
/// or the `code` of a REST problem when it is one); ``message(in:)`` gives the text
/// people read, in Chinese or English, for every case.
///
/// ```swift
/// do {
///     try await client.remove(id: 42)
/// } catch .server(.noSuchNote, _) {
///     // already gone
/// } catch {
///     print(error.message(in: .chinese))
/// }
/// ```
public enum NotesClientError: Error, Sendable {
    /// The server answered with a failing `ResultCode`; `serverMessage` is its `Message` text.
    case server(ResultCode, serverMessage: String?)
    /// The request did not reach the server, or the connection broke.
    case transport(TransportFailureReason)
    /// The REST API answered with a problem (`application/problem+json`), by status.
    case rest(RESTFailureReason)
    /// The server answered with an HTTP status the call does not expect, and not with a
    /// protocol answer or a problem: e.g. a proxy's 502, or 404 from a server without the API.
    case http(status: Int, body: String)
    /// The answer was HTTP 200 but not a protocol answer the client can read.
    case invalidResponse(ResponseFailureReason)
    /// The request took longer than the configured timeout.
    case timedOut
    /// The request was cancelled: by its ``NotesRequest`` handle or by Task cancellation.
    case cancelled
    /// The client's configuration cannot make a request.
    case invalidConfiguration(String)

    /// Why a request did not get through.
    public enum TransportFailureReason: Sendable {
        /// Nothing listens there, or the host is unknown or unreachable.
        case cannotConnect(URLError)
        /// The connection closed before a complete answer.
        case connectionLost(URLError)
        /// Any other failure of the URL loading system.
        case other(URLError)

        /// The underlying error.
        public var underlying: URLError {
            switch self {
            case .cannotConnect(let error), .connectionLost(let error), .other(let error):
                return error
            }
        }
    }

    /// Why an HTTP 200 answer could not be read.
    public enum ResponseFailureReason: Sendable, Hashable {
        /// The body is not the JSON or XML the client asked for; `detail` says where it broke.
        case malformed(format: WireFormat, detail: String)
        /// A negative `ResultCode` this client does not know.
        case unknownResultCode(Int, serverMessage: String?)
        /// A note's date is not a protocol date.
        case invalidDate(String)
    }

    /// The protocol's code when the server reported the failure, else `nil`.
    public var resultCode: ResultCode? {
        switch self {
        case .server(let code, _): return code
        case .rest(let reason): return reason.problem.resultCode
        default: return nil
        }
    }

    /// How long the server asked the client to wait before trying again (`Retry-After`).
    public var retryAfter: Duration? {
        if case .rest(.tooManyRequests(_, let retryAfter)) = self { return retryAfter }
        return nil
    }

    /// The message people read, in `language`.
    ///
    /// For a server failure this is the protocol's text for the code (the quota
    /// message names the quota the server reported).
    public func message(in language: MessageLanguage) -> String {
        let chinese = language == .chinese
        switch self {
        case .server(let code, let serverMessage):
            return code.message(in: language, quota: Self.firstNumber(in: serverMessage) ?? 0)
        case .transport(.cannotConnect):
            return chinese ? "无法连接到服务器。" : "Could not connect to the server."
        case .transport(.connectionLost):
            return chinese ? "与服务器的连接中断了。" : "The connection to the server was lost."
        case .transport(.other(let error)):
            return (chinese ? "网络错误：" : "Network error: ") + "\(error.code.rawValue)"
        case .rest(let reason):
            return reason.message(in: language)
        case .http(413, _):
            return chinese
                ? "请求太大，服务器拒绝了（HTTP 413）。"
                : "The request was too large for the server (HTTP 413)."
        case .http(414, _):
            return chinese
                ? "请求的 URL 太长，服务器拒绝了（HTTP 414）：请用 POST 发送。"
                : "The request's URL was too long for the server (HTTP 414): send it by POST."
        case .http(let status, _):
            return chinese ? "服务器返回了 HTTP \(status)。" : "The server answered HTTP \(status)."
        case .invalidResponse(.unknownResultCode(let code, let serverMessage)):
            return serverMessage ?? (chinese ? "未知的结果代码 \(code)。" : "Unknown result code \(code).")
        case .invalidResponse:
            return chinese ? "无法读取服务器的回答。" : "The server's answer could not be read."
        case .timedOut:
            return chinese ? "请求超时。" : "The request timed out."
        case .cancelled:
            return chinese ? "请求已取消。" : "The request was cancelled."
        case .invalidConfiguration(let detail):
            return (chinese ? "配置无效：" : "Invalid configuration: ") + detail
        }
    }

    static func firstNumber(in text: String?) -> Int? {
        guard let text else { return nil }
        let digits = text.drop { !$0.isASCII || !$0.isNumber }.prefix { $0.isASCII && $0.isNumber }
        return Int(digits)
    }
}

extension NotesClientError: LocalizedError {
    /// The message in the language of the current locale.
    public var errorDescription: String? {
        message(in: MessageLanguage(localeIdentifier: Locale.current.identifier))
    }
}
