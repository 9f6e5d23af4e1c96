import MyNotesDomain
import MyNotesProtocol

/// What a ``RESTProblem`` says, written out in the client's language by ``text(in:)``.
enum RESTMessage: Sendable, Hashable {
    /// Why a field's value is refused.
    enum Reason: Sendable, Hashable {
        case emptyContent
        case invalidContent
        case invalidDate
        case invalidEmail(EmailError)
        case passwordTooShort(Int)
        case passwordTooLong(Int)
        case limitOutOfRange(ClosedRange<Int>)
        case invalidCursor
        case queryTooLong(Int)
        case notABoolean
    }

    case resultCode(ResultCode)
    case unsupportedMediaType
    case malformedJSON
    case notAnObject
    case unknownField(String)
    case wrongType(field: String, expected: String)
    case missingField(String)
    case invalidField(String, Reason)
    case contentTooLarge(field: String, maximumBytes: Int)
    case quotaExceeded(NoteQuota.Limit)
    case emailTaken
    case signupClosed
    case wrongCredentials
    case wrongCurrentPassword
    case noSuchSession
    case throttled(seconds: Int)
    case rateLimited(seconds: Int)
    case preconditionFailed
    case overloaded(seconds: Int)
    // The change feed's refusals.
    case cursorExpired
    case tooManyStreams(Int)
    case streamsFull
}

extension RESTMessage {
    /// The `detail` of the problem, in `language`.
    func text(in language: MessageLanguage) -> String {
        let zh = language == .chinese
        switch self {
        case .resultCode(let code):
            return code.message(in: language)
        case .unsupportedMediaType:
            return zh ? "请求体必须是 application/json。" : "The body must be application/json."
        case .malformedJSON:
            return zh ? "请求体不是有效的 JSON。" : "The body is not valid JSON."
        case .notAnObject:
            return zh ? "请求体必须是 JSON 对象。" : "The body must be a JSON object."
        case .unknownField(let field):
            return zh ? "未知字段“\(field)”。" : "Unknown field '\(field)'."
        case .wrongType(let field, let expected):
            return zh
                ? "字段“\(field)”必须是\(expected == "string" ? "字符串" : expected)。"
                : "Field '\(field)' must be a \(expected)."
        case .missingField(let field):
            return zh ? "缺少字段“\(field)”。" : "Field '\(field)' is required."
        case .invalidField(let field, let reason):
            return reasonText(field: field, reason, chinese: zh)
        case .contentTooLarge(let field, let maximum):
            return zh
                ? "字段“\(field)”超过 \(maximum) 字节。"
                : "Field '\(field)' is longer than \(maximum) bytes."
        case .quotaExceeded(.notes(let limit)):
            return ResultCode.quotaExceeded.message(in: language, quota: limit)
        case .quotaExceeded(.bytes(let limit)):
            return zh
                ? "您的账号的笔记内容最多能有 \(limit) 字节。"
                : "Your account's notes can hold at most \(limit) bytes of content."
        case .emailTaken:
            return zh ? "该邮箱已注册。" : "An account with this email already exists."
        case .signupClosed:
            return zh ? "本服务器不开放注册。" : "Sign-up is disabled on this server."
        case .wrongCredentials:
            return zh ? "邮箱或密码错误。" : "Wrong email or password."
        case .wrongCurrentPassword:
            return zh ? "当前密码错误。" : "The current password is wrong."
        case .noSuchSession:
            return zh ? "没有这个会话。" : "No such session."
        case .throttled(let seconds):
            return zh
                ? "登录失败次数过多，请在 \(seconds) 秒后重试。"
                : "Too many failed sign-ins. Try again in \(seconds) seconds."
        case .rateLimited(let seconds):
            return zh
                ? "注册或登录请求过多，请在 \(seconds) 秒后重试。"
                : "Too many sign-ups or sign-ins. Try again in \(seconds) seconds."
        case .overloaded(let seconds):
            return zh
                ? "服务器繁忙，请在 \(seconds) 秒后重试。"
                : "The server is busy. Try again in \(seconds) seconds."
        case .cursorExpired:
            return zh
                ? "游标已过期（其后删除的笔记记录已清除），请从头同步。"
                : "The cursor has expired (tombstones after it were purged): sync again from the start."
        case .tooManyStreams(let limit):
            return zh
                ? "该账号已打开 \(limit) 个变更流，请先关闭一个。"
                : "This account already has \(limit) change streams open; close one first."
        case .streamsFull:
            return zh
                ? "服务器的变更流已满，请稍后重试。"
                : "The server holds as many change streams as it can; try again later."
        case .preconditionFailed:
            return zh
                ? "笔记已被修改（If-Match 不符）。"
                : "The note has changed (If-Match does not match)."
        }
    }

    private func reasonText(field: String, _ reason: Reason, chinese zh: Bool) -> String {
        switch reason {
        case .emptyContent:
            return zh ? "字段“\(field)”不能为空。" : "Field '\(field)' must not be empty."
        case .invalidContent:
            return zh
                ? "字段“\(field)”含有不允许的字符（控制字符、U+FFFE、U+FFFF）。"
                : "Field '\(field)' holds characters that are not allowed "
                    + "(control characters, U+FFFE, U+FFFF)."
        case .invalidDate:
            return zh
                ? "字段“\(field)”必须是 yyyy-MM-dd、yyyy-MM-dd HH:mm 或 yyyy-MM-dd HH:mm:ss。"
                : "Field '\(field)' must be yyyy-MM-dd, yyyy-MM-dd HH:mm or yyyy-MM-dd HH:mm:ss."
        case .invalidEmail(let problem):
            return emailText(field: field, problem, chinese: zh)
        case .passwordTooShort(let minimum):
            return zh
                ? "字段“\(field)”至少需要 \(minimum) 个字符。"
                : "Field '\(field)' needs at least \(minimum) characters."
        case .passwordTooLong(let maximum):
            return zh
                ? "字段“\(field)”不能超过 \(maximum) 字节。"
                : "Field '\(field)' must be at most \(maximum) bytes."
        case .limitOutOfRange(let range):
            return zh
                ? "参数“\(field)”必须是 \(range.lowerBound) 到 \(range.upperBound) 的整数。"
                : "Parameter '\(field)' must be a whole number from \(range.lowerBound) "
                    + "to \(range.upperBound)."
        case .invalidCursor:
            return zh ? "参数“\(field)”无效。" : "Parameter '\(field)' is not a valid cursor."
        case .queryTooLong(let maximum):
            return zh
                ? "参数“\(field)”不能超过 \(maximum) 个字符。"
                : "Parameter '\(field)' must be at most \(maximum) characters."
        case .notABoolean:
            return zh
                ? "参数“\(field)”必须是 true 或 false。"
                : "Parameter '\(field)' must be true or false."
        }
    }

    /// Why an email is refused, naming the character by its code point (never the
    /// character itself, which may be invisible or reorder the message).
    private func emailText(field: String, _ problem: EmailError, chinese zh: Bool) -> String {
        switch problem {
        case .empty, .malformed:
            return zh
                ? "字段“\(field)”不是有效的邮箱（需要一个 @，两边都有内容）。"
                : "Field '\(field)' is not a valid email (one @ with text on both sides)."
        case .tooLong(let maximum):
            return zh
                ? "字段“\(field)”不能超过 \(maximum) 字节。"
                : "Field '\(field)' must be at most \(maximum) bytes."
        case .controlCharacter(let scalar):
            return zh
                ? "字段“\(field)”含有控制字符（\(scalar.code)）。"
                : "Field '\(field)' holds a control character (\(scalar.code))."
        case .bidiControl(let scalar):
            return zh
                ? "字段“\(field)”含有双向文本控制字符（\(scalar.code)）。"
                : "Field '\(field)' holds a bidirectional formatting character (\(scalar.code))."
        case .invisibleCharacter(let scalar):
            return zh
                ? "字段“\(field)”含有空格或不可见字符（\(scalar.code)）。"
                : "Field '\(field)' holds a space or an invisible character (\(scalar.code))."
        case .mixedScripts(let scripts):
            return zh
                ? "字段“\(field)”在 @ 之前混用了不同文字（\(scripts.joined(separator: "、"))）。"
                : "Field '\(field)' mixes scripts before the @ "
                    + "(\(scripts.joined(separator: " and ")))."
        }
    }
}
