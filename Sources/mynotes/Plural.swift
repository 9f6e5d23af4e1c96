/// Counts in messages: "1 note", "2 notes".
enum Plural {
    static func notes(_ count: Int) -> String {
        count == 1 ? "1 note" : "\(count) notes"
    }

    static func changes(_ count: Int) -> String {
        count == 1 ? "1 change" : "\(count) changes"
    }
}
