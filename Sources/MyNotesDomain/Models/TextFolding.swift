/// What "case-insensitive" means for note search, defined once so every store
/// (SQLite here, a server database later) folds text the same way.
///
/// Text is folded by upper-casing then lower-casing it with Unicode's full case
/// mappings. That is close to Unicode full case folding: `A`/`a`, `Ä`/`ä`, `Σ`/`σ`/`ς`,
/// `ß`/`SS`/`ss`, `ﬁ`/`FI`/`fi` and full-width `Ｍ`/`ｍ` all match. Nothing else is folded:
/// accents (`é` ≠ `e`), width (`Ｍ` ≠ `M`), kana (`カ` ≠ `か`), and Unicode
/// normalization is not applied (a precomposed `é` ≠ `e` + U+0301). Scripts without
/// case — Chinese, Japanese kanji and kana, Korean — match exactly.
///
/// ```swift
/// TextFolding.fold("Straße")  // "strasse"
/// ```
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        // ASCII-only text folds by a byte map, without Unicode tables: most notes.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.lowercased()
        }
        // The standard library maps case one scalar at a time, so the fold of a text is
        // its scalars' folds in a row; a table holds those of the Basic Multilingual Plane
        // (`String.uppercased()` makes a String per scalar: a few MB/s on this machine, tens
        // of milliseconds for a 64 KiB note, where the table answers at memory speed).
        var text = text
        let (singles, longer) = basicPlane
        return text.withUTF8 { utf8 in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(utf8.count + 16)
            var index = 0
            while index < utf8.count {
                let lead = UInt32(utf8[index])
                if lead < 0x80 {
                    bytes.append(UInt8(lead) | (lead &- 0x41 < 26 ? 0x20 : 0))
                    index += 1
                    continue
                }
                // Swift strings hold valid UTF-8: the lead byte gives the length.
                let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                var value = lead & (0x7F >> UInt32(length))
                for offset in 1..<length {
                    value = value << 6 | UInt32(utf8[index + offset]) & 0x3F
                }
                if value < 0x1_0000 {
                    let entry = singles[Int(value)]
                    if entry & Self.several == 0 {
                        appendUTF8(entry, to: &bytes)
                    } else {
                        bytes.append(contentsOf: longer[Int(entry & ~Self.several)])
                    }
                } else if let scalar = Unicode.Scalar(value),
                    scalar.properties.changesWhenCaseMapped
                {
                    bytes.append(contentsOf: reference(scalar).utf8)
                } else {
                    bytes.append(contentsOf: utf8[index..<index + length])
                }
                index += length
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// A digest of the folding's tables (FNV-1a): it changes when a Swift runtime with
    /// other Unicode case mappings folds some text differently than before. The search
    /// index records it, and is rebuilt when it changes. Computed once per process: it
    /// walks 128 Ki scalars, and every store that opens reads it.
    package static let fingerprint: UInt64 = {
        let (singles, longer) = basicPlane
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ value: UInt32) {
            hash = (hash ^ UInt64(value)) &* 0x0000_0100_0000_01B3
        }
        for single in singles { mix(single) }
        for bytes in longer { for byte in bytes { mix(UInt32(byte)) } }
        // Cased scalars above the Basic Multilingual Plane (Deseret, Osage, Adlam…).
        for value in UInt32(0x1_0000)..<0x2_0000 {
            guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenCaseMapped
            else { continue }
            mix(value)
            for folded in reference(scalar).unicodeScalars { mix(folded.value) }
        }
        return hash
    }()

    /// The definition: what ``fold(_:)`` gives, one scalar's worth, the slow way.
    static func reference(_ scalar: Unicode.Scalar) -> String {
        String(scalar).uppercased().lowercased()
    }

    /// Marks a table entry that is an index into `longer` (`ß`, `ﬁ`, `İ`).
    private static let several: UInt32 = 0x8000_0000

    /// The fold of each scalar below U+10000: the folded scalar, or ``several`` and the
    /// index of its UTF-8 bytes in `longer` when it folds to more than one scalar.
    private static let basicPlane: (singles: [UInt32], longer: [[UInt8]]) = {
        var singles = [UInt32](repeating: 0, count: 0x1_0000)
        var longer: [[UInt8]] = []
        for value in 0..<UInt32(0x1_0000) {
            singles[Int(value)] = value
            guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenCaseMapped
            else { continue }  // surrogates never occur in a String
            let folded = reference(scalar)
            if folded.unicodeScalars.count == 1 {
                singles[Int(value)] = folded.unicodeScalars.first!.value
            } else {
                singles[Int(value)] = several | UInt32(longer.count)
                longer.append(Array(folded.utf8))
            }
        }
        return (singles, longer)
    }()

    private static func appendUTF8(_ value: UInt32, to bytes: inout [UInt8]) {
        switch value {
        case ..<0x80:
            bytes.append(UInt8(value))
        case ..<0x800:
            bytes.append(UInt8(0xC0 | value >> 6))
            bytes.append(UInt8(0x80 | value & 0x3F))
        case ..<0x1_0000:
            bytes.append(UInt8(0xE0 | value >> 12))
            bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | value >> 18))
            bytes.append(UInt8(0x80 | value >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        }
    }
}
