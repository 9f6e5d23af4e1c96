import PercentEncoding
import Testing

@Suite("QueryString")
struct QueryStringTests {
    /// The WHATWG urlencoded parser vectors (web-platform-tests, urlencoded-parser).
    @Test(
        "Parses like the WHATWG urlencoded parser",
        arguments: [
            ("test", [["test", ""]]),
            ("\u{FEFF}test=\u{FEFF}", [["\u{FEFF}test", "\u{FEFF}"]]),
            ("%EF%BB%BFtest=%EF%BB%BF", [["\u{FEFF}test", "\u{FEFF}"]]),
            ("%FE%FF", [["\u{FFFD}\u{FFFD}", ""]]),
            ("†&†=x", [["†", ""], ["†", "x"]]),
            ("%C2", [["\u{FFFD}", ""]]),
            ("%C2x", [["\u{FFFD}x", ""]]),
            ("", []),
            ("a=b", [["a", "b"]]),
            ("=b", [["", "b"]]),
            ("&", []),
            ("&a", [["a", ""]]),
            ("a&a", [["a", ""], ["a", ""]]),
            ("&&&a=b&&&&c=d&", [["a", "b"], ["c", "d"]]),
            ("a==a", [["a", "=a"]]),
            ("a=a+b+c+d", [["a", "a b c d"]]),
            ("%=a", [["%", "a"]]),
            ("%a=a", [["%a", "a"]]),
            ("%a_=a", [["%a_", "a"]]),
            ("%61=a", [["a", "a"]]),
            ("%61+%4d%4D=", [["a MM", ""]]),
            ("id=0&value=%", [["id", "0"], ["value", "%"]]),
            ("b=%2sf%2a", [["b", "%2sf*"]]),
            ("b=%2%2af%2a", [["b", "%2*f*"]]),
            ("b=%%2a", [["b", "%*"]]),
        ])
    func whatwgParser(input: String, expected: [[String]]) {
        let parsed = QueryString(parsing: input).items.map { [$0.name, $0.value] }
        #expect(parsed == expected)
    }

    @Test("Encodes each name and value, in order")
    func encodes() {
        var query = QueryString()
        query.append("a b", "1&2")
        query.append("c", "x=y+z")
        #expect(query.encoded(using: .form) == "a+b=1%262&c=x%3Dy%2Bz")
        #expect(query.encoded(using: .queryValue) == "a%20b=1%262&c=x%3Dy%2Bz")
        #expect(query["c"] == "x=y+z")
    }

    @Test("The last of repeated names wins")
    func lastWins() {
        #expect(QueryString(parsing: "a=1&a=2")["a"] == "2")
    }
}
