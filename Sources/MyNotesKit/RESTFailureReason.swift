import Foundation
import MyNotesProtocol

extension NotesClientError {
    /// Why the REST API refused a call: the problem it answered with, by HTTP status.
    ///
    /// ```swift
    /// do {
    ///     try await api.replace(id: note.id, content: "v2", date: note.date, ifMatch: note.etag)
    /// } catch .rest(.editConflict(_, let current?)) {
    ///     merge(mine, theirs: current)   // someone changed the note since it was read
    /// } catch .rest(.tooManyRequests(_, let wait)) {
    ///     print("try again in", wait ?? .seconds(1))
    /// }
    /// ```
    public enum RESTFailureReason: Sendable, Hashable {
        /// 401: no token, an unknown or revoked one, or a wrong email or password.
        case unauthorized(ProblemDetails)
        /// 403: sign-up is disabled, or the account's note quota is full.
        case forbidden(ProblemDetails)
        /// 404: no such note (another account's notes are never found either).
        case notFound(ProblemDetails)
        /// 409: an account with this email already exists.
        case alreadyExists(ProblemDetails)
        /// 412: the note changed since the ETag given as `If-Match` was read. `current`
        /// is the note as the server now has it, `nil` if it is gone or could not be read.
        case editConflict(ProblemDetails, current: VersionedNote?)
        /// 410: the change cursor is older than the server keeps deletions for; the
        /// changes since it are lost, so the client must sync in full (from no cursor).
        case cursorExpired(ProblemDetails)
        /// 422: a field is missing or invalid; the problem's `detail` names it.
        case unprocessable(ProblemDetails)
        /// 429: too many attempts; `retryAfter` is the server's `Retry-After`, if any.
        case tooManyRequests(ProblemDetails, retryAfter: Duration?)
        /// Any other status with a problem body: 400, 413, 500 …
        case other(ProblemDetails)

        /// The problem the server answered with.
        public var problem: ProblemDetails {
            switch self {
            case .unauthorized(let problem), .forbidden(let problem), .notFound(let problem),
                .alreadyExists(let problem), .editConflict(let problem, _),
                .cursorExpired(let problem), .unprocessable(let problem),
                .tooManyRequests(let problem, _),
                .other(let problem):
                return problem
            }
        }

        /// The reason for a problem answer with `status`.
        init(status: Int, problem: ProblemDetails, retryAfter: Duration?) {
            switch status {
            case 401: self = .unauthorized(problem)
            case 403: self = .forbidden(problem)
            case 404: self = .notFound(problem)
            case 409: self = .alreadyExists(problem)
            case 410: self = .cursorExpired(problem)
            case 412: self = .editConflict(problem, current: nil)
            case 422: self = .unprocessable(problem)
            case 429: self = .tooManyRequests(problem, retryAfter: retryAfter)
            default: self = .other(problem)
            }
        }

        /// The server's `detail` when it is in `language`; else the protocol's text for
        /// the problem's code, or a short sentence for the status.
        func message(in language: MessageLanguage) -> String {
            let problem = self.problem
            if !problem.detail.isEmpty, problem.language == nil || problem.language == language {
                return problem.detail
            }
            if let code = problem.resultCode {
                let quota = NotesClientError.firstNumber(in: problem.detail) ?? 0
                return code.message(in: language, quota: quota)
            }
            let chinese = language == .chinese
            switch self {
            case .unauthorized: return chinese ? "身份验证失败。" : "Authentication failed."
            case .forbidden: return chinese ? "服务器拒绝了请求。" : "The server refused the request."
            case .notFound: return chinese ? "没有数据。" : "No such note."
            case .alreadyExists:
                return chinese ? "该邮箱已注册。" : "An account with this email already exists."
            case .editConflict:
                return chinese ? "笔记已被他人修改。" : "The note has changed since it was read."
            case .cursorExpired:
                return chinese
                    ? "变更记录已过期，需要完整同步。"
                    : "The change cursor has expired: a full sync is needed."
            case .unprocessable: return chinese ? "参数无效。" : "Invalid parameter."
            case .tooManyRequests:
                return chinese ? "尝试次数过多，请稍后再试。" : "Too many attempts. Try again later."
            case .other:
                return chinese
                    ? "服务器返回了 HTTP \(problem.status)。"
                    : "The server answered HTTP \(problem.status)."
            }
        }
    }
}

/// An RFC 9457 problem, as the REST API reports every failure:
/// `{"type":"about:blank","title":"Not Found","status":404,"code":-7,"detail":"No such note."}`.
///
/// ```swift
/// if case .rest(let reason) = error {
///     print(reason.problem.status, reason.problem.code, reason.problem.detail)
/// }
/// ```
public struct ProblemDetails: Sendable, Hashable {
    /// A URI naming the kind of problem; `about:blank` when the status says it all.
    public var type: String
    /// The status's short phrase, e.g. `Not Found`.
    public var title: String
    /// The HTTP status.
    public var status: Int
    /// Stable and numeric: the legacy ``ResultCode`` where one fits (-7, -9 …), else the status.
    public var code: Int
    /// The explanation for people, in the language the client asked for; names the field
    /// at fault, if any.
    public var detail: String
    /// The language of `detail` (the answer's `Content-Language`), when the server said.
    public var language: MessageLanguage?

    /// Creates a problem value, e.g. to compare with what a call threw.
    public init(
        type: String = "about:blank", title: String, status: Int, code: Int, detail: String,
        language: MessageLanguage? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.code = code
        self.detail = detail
        self.language = language
    }

    /// `code` as a legacy ``ResultCode``, when it is one.
    public var resultCode: ResultCode? {
        code < 0 ? ResultCode(rawValue: code) : nil
    }
}
