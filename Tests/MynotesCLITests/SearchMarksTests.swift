import Testing

@testable import mynotes

/// `mynotes search` marks the words' matches in the content column, folded as the server
/// folds, and nothing else.
@Suite struct SearchMarksTests {
    static func shown(_ text: String) -> String {
        text.replacing(SearchMarks.start, with: "[").replacing(SearchMarks.end, with: "]")
    }

    @Test(arguments: [
        (["milk"], "Buy MILK, milkshake", "Buy [MILK], [milk]shake"),
        (["strasse"], "Hauptstraße 5", "Haupt[straße] 5"),
        (["会议", "周一"], "周一上午会议", "[周一]上午[会议]"),
        (["milk", "ilk s"], "milk shake", "[milk s]hake"),
        (["cafe"], "café", "café"),
    ])
    func everyMatchOfEveryWordIsMarked(words: [String], text: String, expected: String) {
        #expect(Self.shown(SearchMarks(words: words).mark(text)) == expected)
    }

    @Test func onlyTheContentColumnIsMarked() {
        let table = "ID  DATE        CONTENT\n 2  2026-11-29  note 2026\n"
        #expect(
            Self.shown(SearchMarks(words: ["2026"]).mark(table: table))
                == "ID  DATE        CONTENT\n 2  2026-11-29  note [2026]\n")
    }
}
