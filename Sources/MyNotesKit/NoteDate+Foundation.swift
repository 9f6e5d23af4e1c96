import Foundation

extension NoteDate {
    /// The moment `date` shows on a clock in `timeZone`, to the second.
    ///
    /// ```swift
    /// NoteDate(Date(), timeZone: TimeZone(identifier: "Asia/Shanghai")!)
    /// ```
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

    /// The moment this date names in `timeZone` (a bare day is its midnight).
    public func date(in timeZone: TimeZone = .current) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = DateComponents(
            year: year, month: month, day: day, hour: time?.hour ?? 0, minute: time?.minute ?? 0,
            second: time?.second ?? 0)
        return calendar.date(from: parts)!
    }
}
