import ServerLogging

/// The access log's RFC 3339 timestamps, the date and time formatted once per second and
/// the milliseconds appended to it: a line's time costs a few byte copies.
struct AccessLogTimestamp {
    private var second: Int64 = .min
    /// `2026-12-01T01:08:07.` for ``second``.
    private var prefix: [UInt8] = []

    mutating func append(_ milliseconds: Int64, to out: inout [UInt8]) {
        let (whole, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1_000)
        guard fraction >= 0 else {
            out.append(contentsOf: LogText.timestamp(milliseconds: milliseconds).utf8)
            return
        }
        if whole != second {
            second = whole
            prefix = Array(LogText.timestamp(milliseconds: whole * 1_000).utf8.dropLast(4))
        }
        out.append(contentsOf: prefix)
        out.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        out.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        out.append(UInt8(ascii: "0") + UInt8(fraction % 10))
        out.append(UInt8(ascii: "Z"))
    }
}
