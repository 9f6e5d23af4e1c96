import Foundation
import PercentEncoding
import Testing

@Suite("PercentEncoder")
struct PercentEncoderTests {
    static let roundTripping: [(PercentEncoder, PercentDecoder)] = [
        (.unreserved, .url), (.queryValue, .url), (.form, .form),
    ]

    @Test("Random Unicode round-trips through every lossless preset", arguments: 0..<3)
    func roundTrip(preset: Int) throws {
        let (encoder, decoder) = Self.roundTripping[preset]
        var generator = SplitMix64(seed: 0xC0FFEE + UInt64(preset))
        for _ in 0..<2_000 {
            let text = RandomText.string(using: &generator)
            let encoded = encoder.encode(text)
            #expect(try decoder.decode(encoded) == text, "\(text.debugDescription) → \(encoded)")
            #expect(decoder.decodeLeniently(encoded) == text)
        }
    }

    @Test(
        "Output holds only the preset's unescaped characters, escapes and (form) plus",
        arguments: [PercentEncoder.unreserved, .queryValue, .form, .legacy])
    func outputAlphabet(encoder: PercentEncoder) {
        var generator = SplitMix64(seed: 7)
        var allowed = encoder.unescapedCharacters.union("%0123456789ABCDEF")
        if encoder.spaces == .plus { allowed.insert(UInt8(ascii: "+")) }
        for _ in 0..<1_000 {
            let encoded = encoder.encode(RandomText.string(using: &generator))
            #expect(encoded.utf8.allSatisfy { allowed.contains($0) }, "\(encoded)")
        }
    }

    @Test(
        "RFC 3986 vectors",
        arguments: [
            ("abcXYZ019", "abcXYZ019"),
            ("-._~", "-._~"),
            (":/?#[]@", "%3A%2F%3F%23%5B%5D%40"),
            ("!$&'()*+,;=", "%21%24%26%27%28%29%2A%2B%2C%3B%3D"),
            (" ", "%20"),
            ("%", "%25"),
            ("À", "%C3%80"),  // §2.5: UTF-8 first, then escape each byte
            ("\u{0}\u{7F}", "%00%7F"),
            ("日本", "%E6%97%A5%E6%9C%AC"),
        ])
    func rfc3986(input: String, expected: String) throws {
        #expect(PercentEncoder.unreserved.encode(input) == expected)
        #expect(try PercentDecoder.url.decode(expected) == input)
    }

    @Test("Hex digits decode in either case (RFC 3986 §2.1)")
    func hexCase() throws {
        #expect(try PercentDecoder.url.decode("%7e%7E%c3%A9") == "~~é")
    }

    @Test(
        "WHATWG application/x-www-form-urlencoded serializer vectors",
        arguments: [
            ("test", "test"),
            (" ", "+"),
            ("a b+c", "a+b%2Bc"),
            ("*-._", "*-._"),
            ("~", "%7E"),
            ("\u{0}", "%00"),
            ("\u{1F4A9}", "%F0%9F%92%A9"),
            ("\u{FEFF}", "%EF%BB%BF"),
            ("é", "%C3%A9"),
            ("!'()", "%21%27%28%29"),
            ("a=b&c", "a%3Db%26c"),
        ])
    func formVectors(input: String, expected: String) {
        #expect(PercentEncoder.form.encode(input) == expected)
    }

    @Test(
        "Agrees with Foundation's addingPercentEncoding where the sets coincide",
        arguments: [
            (PercentEncoder.unreserved, "-._~"),
            (PercentEncoder.queryValue, "-._~/?"),
        ])
    func agreesWithFoundation(encoder: PercentEncoder, extra: String) {
        let allowed = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" + extra)
        var generator = SplitMix64(seed: 42)
        for _ in 0..<1_000 {
            let text = RandomText.string(using: &generator)
            #expect(
                encoder.encode(text) == text.addingPercentEncoding(withAllowedCharacters: allowed))
        }
    }

    @Test("Form encoding agrees with Foundation on text without spaces")
    func formAgreesWithFoundation() {
        let allowed = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._")
        var generator = SplitMix64(seed: 43)
        for _ in 0..<1_000 {
            let text = RandomText.string(using: &generator).replacingOccurrences(of: " ", with: "")
            #expect(
                PercentEncoder.form.encode(text)
                    == text.addingPercentEncoding(withAllowedCharacters: allowed))
        }
    }

    @Test("Foundation's urlQueryAllowed minus the delimiters is the queryValue preset")
    func queryValueIsAlamofiresSet() {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: ":#[]@!$&'()*+,;=")
        let text = String((0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) })
        #expect(
            PercentEncoder.queryValue.encode(text)
                == text.addingPercentEncoding(withAllowedCharacters: allowed))
    }

    @Test("The two CF knobs: escaping legal characters, leaving illegal ones")
    func knobs() {
        // Given CF's rule: `escaping` applies to URL-legal characters, `leavingUnescaped` to the rest.
        let encoder = PercentEncoder(leavingUnescaped: " <", escaping: "&/")
        // Then
        #expect(encoder.encode("a&b/c d<e>f?") == "a%26b%2Fc d<e%3Ef?")
        #expect(PercentEncoder().encode("a&b=%41 ") == "a&b=%41%20")
    }

    @Test("Legacy preset reproduces the seed's escapes")
    func legacy() {
        #expect(PercentEncoder.legacy.encode("1+1 $5,#[x]") == "1%2B1%20%245%2C%23%5Bx%5D")
        #expect(PercentEncoder.legacy.encode("a&b=c%41") == "a&b=c%41")
    }

    @Test("Encoding a whole URL at once loses data; encoding each value keeps it")
    func wholeURLLosesData() {
        // Given a note with delimiters in it
        let note = "salt & pepper=1+1 100%41"
        // When the seed encodes the whole query string
        let whole = PercentEncoder.legacy.encode("action=add&content=" + note)
        let received = QueryString(parsing: whole)
        // Then the server sees another note (and a stray parameter)
        #expect(received["content"] != note)
        #expect(received["content"] == "salt ")
        #expect(received.items.count == 3)
        // When each value is encoded on its own
        var query = QueryString()
        query.append("action", "add")
        query.append("content", note)
        // Then it arrives intact, by either preset
        #expect(QueryString(parsing: query.encoded(using: .form))["content"] == note)
        #expect(QueryString(parsing: query.encoded(using: .queryValue))["content"] == note)
    }
}
