import MyNotesDomain
import Testing

/// ``TextFolding`` folds from its tables exactly as its definition does: upper-casing then
/// lower-casing with the standard library (the tables make it fast; the answers must not
/// change, or search would find other notes than before).
@Suite struct TextFoldingTests {
    @Test(arguments: [
        "Straße", "ÀSS ß ﬁ İ Σ ς", "𐐀𐐨 Deseret", "😀 👩‍💻 emoji", "ＭＩＬＫ", "会议记录", "e\u{301}",
        "ASCII only", "",
    ])
    func foldsAsTheDefinitionDoes(text: String) {
        #expect(TextFolding.fold(text) == text.uppercased().lowercased())
    }

    @Test func everyScalarFoldsAsTheDefinitionDoes() {
        var all = String.UnicodeScalarView()
        for value in UInt32(0)..<0x11_0000 {
            if let scalar = Unicode.Scalar(value) { all.append(scalar) }
        }
        let text = String(all)
        #expect(TextFolding.fold(text) == text.uppercased().lowercased())
    }
}
