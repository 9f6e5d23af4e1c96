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
        return text.uppercased().lowercased()
    }
}
