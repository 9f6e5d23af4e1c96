import Foundation

extension Data {
    /// What in these bytes would crash `XMLParser`, or `nil`: checked before it sees them.
    ///
    /// FoundationXML (Swift 6.3.1 on Linux) traps on an element or attribute name that is
    /// not UTF-8, and dereferences NULL on a processing instruction without data (`<?x?>`).
    /// The protocol's answers and the app's files are UTF-8 and hold no processing
    /// instruction but the XML declaration, so refusing both costs nothing. Package access:
    /// the CLI reads its XML files the same way.
    ///
    /// ```swift
    /// Data("<Response/>".utf8).xmlParserHazard             // nil
    /// Data("<Response><?x?></Response>".utf8).xmlParserHazard  // "a processing instruction without data"
    /// ```
    package var xmlParserHazard: String? {
        if !isValidUTF8 { return "not UTF-8" }
        if hasProcessingInstructionWithoutData { return "a processing instruction without data" }
        return nil
    }

    /// Whether the bytes are well-formed UTF-8, checked without copying them.
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

    /// `<?` and a target directly followed by `?>`, wherever it is.
    private var hasProcessingInstructionWithoutData: Bool {
        withUnsafeBytes { bytes in
            var index = 0
            while index + 1 < bytes.count {
                defer { index += 1 }
                guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?")
                else { continue }
                var end = index + 2
                while end < bytes.count, bytes[end] != UInt8(ascii: "?"),
                    ![0x20, 0x09, 0x0A, 0x0D].contains(bytes[end])
                {
                    end += 1
                }
                if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "?"),
                    bytes[end + 1] == UInt8(ascii: ">")
                {
                    return true
                }
            }
            return false
        }
    }
}
