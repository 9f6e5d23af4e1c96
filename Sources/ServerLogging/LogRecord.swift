import Glibc
import TextEscaping

/// One line to write, before it is formatted.
struct LogRecord {
    /// Wall-clock time in milliseconds since 1970, UTC.
    struct Time {
        let milliseconds: Int64

        static var now: Time {
            var spec = timespec()
            clock_gettime(CLOCK_REALTIME, &spec)
            return Time(milliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
        }

        /// RFC 3339 in UTC with milliseconds: `2026-11-30T22:50:01.123Z`.
        var text: String {
            var seconds = time_t(milliseconds / 1000)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            func digits(_ value: Int32, _ width: Int) -> String {
                let text = String(value)
                return String(repeating: "0", count: max(0, width - text.count)) + text
            }
            return digits(parts.tm_year + 1900, 4) + "-" + digits(parts.tm_mon + 1, 2) + "-"
                + digits(parts.tm_mday, 2) + "T" + digits(parts.tm_hour, 2) + ":"
                + digits(parts.tm_min, 2) + ":" + digits(parts.tm_sec, 2) + "."
                + digits(Int32(milliseconds % 1000), 3) + "Z"
        }
    }

    /// Metadata keys whose values are secrets: never written, whoever passes them.
    static let secretKeys: Set<String> = [
        "token", "password", "authorization", "cookie", "set-cookie", "secret",
    ]

    let time: Time
    let level: LogLevel
    let message: String
    let metadata: [(key: String, value: String)]

    func line(_ format: LogFormat) -> String {
        switch format {
        case .text: textLine
        case .json: jsonLine
        }
    }

    private func value(_ pair: (key: String, value: String)) -> String {
        Self.secretKeys.contains(pair.key.lowercased()) ? "[redacted]" : pair.value
    }

    /// `time level message key=value key="value with spaces"`, on one line whatever
    /// the message holds: control characters are escaped.
    private var textLine: String {
        var line = time.text + " " + level.description + " " + Self.escaped(message, quoting: false)
        for pair in metadata {
            line += " " + pair.key + "=" + Self.escaped(value(pair), quoting: true)
        }
        return line
    }

    private var jsonLine: String {
        var line =
            "{\"time\":\"" + time.text + "\",\"level\":\"" + level.description
            + "\",\"message\":" + JSONText.quoted(message)
        for pair in metadata {
            line += "," + JSONText.quoted(pair.key) + ":" + JSONText.quoted(value(pair))
        }
        return line + "}"
    }

    /// Control characters as escapes, so a value cannot forge a line; quoted when it
    /// holds spaces, quotes or `=`, so it cannot forge a key either.
    static func escaped(_ text: String, quoting: Bool) -> String {
        var result = ""
        var needsQuotes = text.isEmpty
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\"", "\\":
                needsQuotes = true
                result += quoting ? "\\" + String(scalar) : String(scalar)
            case " ", "=":
                needsQuotes = true
                result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return quoting && needsQuotes ? "\"" + result + "\"" : result
    }

}
