/// Counts in messages: "1 note", "2 notes".
enum Plural {
    static func notes(_ count: Int) -> String {
        count == 1 ? "1 note" : "\(count) notes"
    }
}
