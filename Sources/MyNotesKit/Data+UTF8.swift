import Foundation

extension Data {
    /// Whether the bytes are well-formed UTF-8, checked without copying them.
    ///
    /// FoundationXML (Swift 6.3.1 on Linux) traps on an element or attribute name that is
    /// not UTF-8, so XML is checked with this before `XMLParser` sees it. Package access:
    /// the CLI reads its XML files the same way.
    ///
    /// ```swift
    /// Data("<Response/>".utf8).isValidUTF8  // true
    /// Data([0x3C, 0xFF, 0x2F, 0x3E]).isValidUTF8  // false
    /// ```
    package var isValidUTF8: Bool {
        withUnsafeBytes { bytes in
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue: continue
                case .emptyInput: return true
                case .error: return false
                }
            }
        }
    }
}
