import CommandLineSupport
import Foundation
import MyNotesProtocol

extension CommandContext {
    /// The language of messages, from `LC_ALL`, `LC_MESSAGES` or `LANG`, in POSIX order.
    var language: MessageLanguage {
        let identifier = [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty }
        return MessageLanguage(localeIdentifier: identifier)
    }

    /// The terminal's height in lines (else `LINES`), for the pager; `nil` when unknown.
    var outputHeight: Int? {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        if let lines = environment["LINES"].flatMap({ Int($0) }), lines > 0 { return lines }
        return nil
    }

    /// The width to fit table rows into: the terminal's, else `COLUMNS`, else no limit.
    var outputWidth: Int? {
        if isatty(1) == 1 {
            var size = winsize()
            if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return nil
    }
}
