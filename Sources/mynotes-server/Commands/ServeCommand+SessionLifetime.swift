import CommandLineSupport

extension ServeCommand {
    /// A session lifetime as `--session-idle-timeout` and `--session-lifetime` take it: a
    /// whole number with `d`, `h`, `m` or `s` (seconds without one), up to 100 years;
    /// `never` or `0` for no limit (`nil`).
    static func lifetime(_ text: String, named name: String) throws(UsageError) -> Duration? {
        if text == "never" { return nil }
        let units: [Character: Int64] = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]
        var digits = Substring(text)
        var unit: Int64 = 1
        if let last = text.last, let seconds = units[last] {
            digits = digits.dropLast()
            unit = seconds
        }
        let limit: Int64 = 100 * 366 * 86_400
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            let count = Int64(digits), count <= limit / unit
        else {
            throw UsageError(
                "option '\(name)' must be a duration such as 30d, 12h, 45m or 90s, or never, "
                    + "not '\(text)'")
        }
        return count == 0 ? nil : .seconds(count * unit)
    }
}
