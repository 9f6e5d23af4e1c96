import MyNotesKit
import PercentEncoding

extension StyledNotesClient {
    /// Why the server would refuse a note of `content` as too long, said before sending;
    /// `nil` when it fits.
    func problem(sending content: String) -> String? {
        let bytes = content.utf8.count
        if bytes > NoteLimits.contentBytes {
            return "the note is \(bytes.formatted) bytes long; the server takes at most "
                + "\(NoteLimits.contentBytes.formatted) bytes (UTF-8)"
        }
        if case .legacy(let client) = backend, client.configuration.method == .get {
            // The content dominates the request line; the rest is well under 1 KiB.
            let line = PercentEncoder.queryValue.encode(content).utf8.count + 1_024
            if line > NoteLimits.requestLineBytes {
                return "the note is too long to send with --method get (about "
                    + "\(line.formatted) bytes of URL; the server takes "
                    + "\(NoteLimits.requestLineBytes.formatted)): use --method post"
            }
        }
        return nil
    }
}

extension Int {
    /// `65536` as `65,536`, the same in every locale, for messages.
    var formatted: String {
        let digits = String(self.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return (self < 0 ? "-" : "") + result
    }
}
