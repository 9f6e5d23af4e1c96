import MyNotesProtocol
import Testing

@Suite("ResultCode and MessageLanguage")
struct ResultCodeTests {
    /// docs/PROTOCOL.md's table of result codes, word for word.
    static let table: [(ResultCode, Int, String, String)] = [
        (.success, 0, "", ""),
        (.noSuchUser, -1, "用户不存在，请先注册。", "The user does not exist. Please register first."),
        (.quotaExceeded, -2, "您的账号最多能插入5条数据。", "Your account can hold at most 5 notes."),
        (.dataAccessFailed, -3, "数据访问失败。", "Data access failed."),
        (.missingID, -4, "ID没有输入。", "No ID was given."),
        (.missingContent, -5, "内容没有输入。", "No content was given."),
        (.missingDate, -6, "日期没有输入。", "No date was given."),
        (.noSuchNote, -7, "没有数据。", "No such note."),
        (.invalidParameter, -8, "参数无效。", "Invalid parameter."),
        (.authenticationFailed, -9, "身份验证失败。", "Authentication failed."),
    ]

    @Test("Each code has its documented value and message in both languages", arguments: table)
    func messages(code: ResultCode, rawValue: Int, chinese: String, english: String) {
        #expect(code.rawValue == rawValue)
        #expect(code.isSuccess == (rawValue >= 0))
        #expect(code.message(in: .chinese, quota: 5) == chinese)
        #expect(code.message(in: .english, quota: 5) == english)
    }

    @Test("The table covers every code")
    func coversEveryCode() {
        #expect(Set(Self.table.map(\.0)) == Set(ResultCode.allCases))
        #expect(ResultCode(rawValue: -10) == nil)
        #expect(ResultCode(rawValue: 1) == nil)
    }

    @Test("The quota message names the configured quota", arguments: [1, 3, 100])
    func quotaMessage(quota: Int) {
        #expect(
            ResultCode.quotaExceeded.message(in: .chinese, quota: quota) == "您的账号最多能插入\(quota)条数据。")
        #expect(
            ResultCode.quotaExceeded.message(in: .english, quota: quota)
                == "Your account can hold at most \(quota) notes.")
    }

    @Test(
        "Accept-Language picks the range with the highest q, the first among equals",
        arguments: [
            (nil, MessageLanguage.english),
            ("", .english),
            ("zh", .chinese),
            ("ZH", .chinese),
            ("zh-CN", .chinese),
            ("zh-TW", .chinese),
            ("zh-Hant-HK", .chinese),
            ("zh-CN,zh;q=0.9,en;q=0.8", .chinese),
            ("en", .english),
            ("en-US,en;q=0.9,zh-CN;q=0.8", .english),
            ("en;q=0.5, zh;q=0.8", .chinese),
            ("en;q=0.8, zh;q=0.5", .english),
            ("zh;q=0.5, en;q=0.5", .chinese),
            ("en;q=0.5, zh;q=0.5", .english),
            ("en;q=0.9, zh", .chinese),
            ("fr, zh;q=0.9", .english),
            ("*, zh;q=0.9", .english),
            ("zh;q=0", .english),
            ("zh;q=0, en;q=0.1", .english),
            ("zh;Q=0.9, en;q=0.8", .chinese),
            (" zh-TW ; q=0.9 , en ; q=0.8 ", .chinese),
            ("zhx", .english),
            ("zh_CN", .english),
            ("de-DE, fr;q=0.9", .english),
        ])
    func acceptLanguage(header: String?, expected: MessageLanguage) {
        #expect(MessageLanguage(acceptLanguage: header) == expected)
    }
}
