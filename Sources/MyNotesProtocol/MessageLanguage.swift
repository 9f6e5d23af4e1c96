/// The languages MyNotes writes its messages in.
///
/// ```swift
/// MessageLanguage(acceptLanguage: "zh-CN,zh;q=0.9,en;q=0.8")  // .chinese
/// MessageLanguage(localeIdentifier: "en_US.UTF-8")            // .english
/// ```
public enum MessageLanguage: String, Sendable, CaseIterable, Hashable {
    /// Simplified Chinese, the language of the original apps.
    case chinese = "zh-Hans"
    /// English, the default for every other preference.
    case english = "en"
}

extension MessageLanguage {
    /// The language an HTTP `Accept-Language` header prefers.
    ///
    /// The range with the highest q-value wins, the first among equals; it means
    /// Chinese when it is `zh` or starts with `zh-`. Anything else, a missing header
    /// included, is English.
    public init(acceptLanguage header: String?) {
        guard let header, !header.isEmpty else {
            self = .english
            return
        }
        var best: (range: Substring, quality: Double)?
        for element in header.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let first = parts.first else { continue }
            let range = first.trimmingSpaces()
            if range.isEmpty { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingSpaces()
                if pair.hasPrefix("q=") || pair.hasPrefix("Q="),
                    let value = Double(pair.dropFirst(2))
                {
                    quality = value
                }
            }
            if quality > (best?.quality ?? 0) { best = (range, quality) }
        }
        guard let range = best?.range.lowercased() else {
            self = .english
            return
        }
        self = range == "zh" || range.hasPrefix("zh-") ? .chinese : .english
    }

    /// The language of a POSIX locale identifier such as the `LANG` variable's `zh_CN.UTF-8`.
    public init(localeIdentifier: String?) {
        let identifier = (localeIdentifier ?? "").lowercased()
        self =
            identifier == "zh" || identifier.hasPrefix("zh_") || identifier.hasPrefix("zh-")
            ? .chinese : .english
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
