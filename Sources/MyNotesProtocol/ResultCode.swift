/// A `ResultCode` of the legacy MyNotes protocol: `0` is success, negative values are failures.
///
/// The raw values and their messages are the wire contract that existing apps
/// already show to people (their `NSNumber+Message` category), so they never change.
///
/// ```swift
/// let code = ResultCode(rawValue: -7)
/// print(code?.message(in: .chinese) ?? "")  // 没有数据。
/// ```
public enum ResultCode: Int, Sendable, CaseIterable, Hashable {
    case success = 0
    case noSuchUser = -1
    case quotaExceeded = -2
    case dataAccessFailed = -3
    case missingID = -4
    case missingContent = -5
    case missingDate = -6
    case noSuchNote = -7
    case invalidParameter = -8
    case authenticationFailed = -9

    /// Whether the code reports success (`>= 0`).
    public var isSuccess: Bool { rawValue >= 0 }

    /// The message a person reads for this code.
    ///
    /// - Parameters:
    ///   - language: the language to write it in.
    ///   - quota: the configured note quota, which the `-2` message names.
    public func message(in language: MessageLanguage, quota: Int = 0) -> String {
        switch (self, language) {
        case (.success, _): return ""
        case (.noSuchUser, .chinese): return "用户不存在，请先注册。"
        case (.noSuchUser, .english): return "The user does not exist. Please register first."
        case (.quotaExceeded, .chinese): return "您的账号最多能插入\(quota)条数据。"
        case (.quotaExceeded, .english): return "Your account can hold at most \(quota) notes."
        case (.dataAccessFailed, .chinese): return "数据访问失败。"
        case (.dataAccessFailed, .english): return "Data access failed."
        case (.missingID, .chinese): return "ID没有输入。"
        case (.missingID, .english): return "No ID was given."
        case (.missingContent, .chinese): return "内容没有输入。"
        case (.missingContent, .english): return "No content was given."
        case (.missingDate, .chinese): return "日期没有输入。"
        case (.missingDate, .english): return "No date was given."
        case (.noSuchNote, .chinese): return "没有数据。"
        case (.noSuchNote, .english): return "No such note."
        case (.invalidParameter, .chinese): return "参数无效。"
        case (.invalidParameter, .english): return "Invalid parameter."
        case (.authenticationFailed, .chinese): return "身份验证失败。"
        case (.authenticationFailed, .english): return "Authentication failed."
        }
    }
}
