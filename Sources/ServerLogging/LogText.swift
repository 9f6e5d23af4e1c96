import TextEscaping

/// The escaping and timestamps of this module's log lines, for other writers of log
/// files (the HTTP access log), so that every line the server writes escapes alike.
///
/// ```swift
/// LogText.jsonString("say \"hi\"")  // "\"say \\\"hi\\\"\""
/// LogText.timestamp(milliseconds: 0)  // "1970-01-01T00:00:00.000Z"
/// ```
public enum LogText {
    /// `text` as a JSON string literal, quotes included, escaped as every JSON the server
    /// writes is (``JSONText``).
    public static func jsonString(_ text: String) -> String { JSONText.quoted(text) }

    /// `text` with control characters escaped, and quotes and backslashes too when
    /// `quoting`; then quoted if it holds spaces, quotes or `=`.
    public static func escaped(_ text: String, quoting: Bool) -> String {
        LogRecord.escaped(text, quoting: quoting)
    }

    /// RFC 3339 in UTC with milliseconds.
    public static func timestamp(milliseconds: Int64) -> String {
        LogRecord.Time(milliseconds: milliseconds).text
    }

    /// Wall-clock time now, in milliseconds since 1970.
    public static var nowMilliseconds: Int64 { LogRecord.Time.now.milliseconds }
}
