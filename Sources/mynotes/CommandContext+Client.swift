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
