import Foundation

/// A note's date as the protocol stores it: a calendar day, with or without a time of day.
///
/// The server keeps `yyyy-MM-dd` or `yyyy-MM-dd HH:mm:ss` and sends it back as
/// written, so a `NoteDate` keeps the difference instead of turning a bare day into
/// a `Date` at some midnight in some time zone.
///
/// ```swift
/// let day = NoteDate("2026-11-29")!             // no time of day
/// let meeting = NoteDate("2026-11-29 14:30")!   // stored as 14:30:00
/// meeting.description                           // "2026-11-29 14:30:00"
/// day < meeting                                 // true: a bare day is its midnight
/// ```
public struct NoteDate: Sendable, Hashable, Comparable, LosslessStringConvertible {
    /// A time of day, to the second.
    public struct Time: Sendable, Hashable {
        /// 0–23.
        public let hour: Int
        /// 0–59.
        public let minute: Int
        /// 0–59; `0` when the date was given as `HH:mm`.
        public let second: Int
    }

    /// 1–9999.
    public let year: Int
    /// 1–12.
    public let month: Int
    /// 1–31, a real day of that month.
    public let day: Int
    /// The time of day, or `nil` for a bare day.
    public let time: Time?

    /// Creates a date from its parts; `nil` unless it is a real Gregorian date in
    /// years 1–9999 with a time in 00:00:00–23:59:59.
    public init?(
        year: Int, month: Int, day: Int, time: (hour: Int, minute: Int, second: Int)? = nil
    ) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.days(inMonth: month, year: year)).contains(day)
        else { return nil }
        if let time {
            guard (0...23).contains(time.hour), (0...59).contains(time.minute),
                (0...59).contains(time.second)
            else { return nil }
            self.time = Time(hour: time.hour, minute: time.minute, second: time.second)
        } else {
            self.time = nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `yyyy-MM-dd`, `yyyy-MM-dd HH:mm` or `yyyy-MM-dd HH:mm:ss`, as the server does.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard [10, 16, 19].contains(bytes.count) else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func separator(_ index: Int, _ character: Character) -> Bool {
            bytes[index] == character.asciiValue
        }
        guard let year = number(0..<4), separator(4, "-"), let month = number(5..<7),
            separator(7, "-"), let day = number(8..<10)
        else { return nil }
        guard bytes.count > 10 else {
            self.init(year: year, month: month, day: day)
            return
        }
        guard separator(10, " "), let hour = number(11..<13), separator(13, ":"),
            let minute = number(14..<16)
        else { return nil }
        var second = 0
        if bytes.count == 19 {
            guard separator(16, ":"), let value = number(17..<19) else { return nil }
            second = value
        }
        self.init(year: year, month: month, day: day, time: (hour, minute, second))
    }

    /// The moment `date` shows on a clock in `timeZone`, to the second.
    public init(_ date: Date, timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: date)
        self.init(
            year: parts.year!, month: parts.month!, day: parts.day!,
            time: (parts.hour!, parts.minute!, parts.second!))!
    }

    /// The current moment in the current time zone.
    public static var now: NoteDate { NoteDate(Date()) }

    /// The wire form: `yyyy-MM-dd` or `yyyy-MM-dd HH:mm:ss`.
    public var description: String {
        let date = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        guard let time else { return date }
        return date + " " + pad(time.hour, 2) + ":" + pad(time.minute, 2) + ":"
            + pad(time.second, 2)
    }

    /// The moment this date names in `timeZone` (a bare day is its midnight).
    public func date(in timeZone: TimeZone = .current) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = DateComponents(
            year: year, month: month, day: day, hour: time?.hour ?? 0, minute: time?.minute ?? 0,
            second: time?.second ?? 0)
        return calendar.date(from: parts)!
    }

    /// Orders as points in time: a bare day is its midnight; ties keep no further order.
    public static func < (lhs: NoteDate, rhs: NoteDate) -> Bool {
        lhs.sortKey < rhs.sortKey
    }

    private var sortKey: (Int, Int, Int, Int, Int, Int) {
        (year, month, day, time?.hour ?? 0, time?.minute ?? 0, time?.second ?? 0)
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
