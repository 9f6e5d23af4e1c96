import Secrets
import Testing

@Suite struct SecretsTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            String(repeating: "a", count: 1_000_000),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        ),
    ])
    func hashesKnownVectors(input: String, hex: String) {
        let digest = SHA256.hash(input)
        #expect(digest.map { String($0, radix: 16).leftPadded(to: 2) }.joined() == hex)
        // The hex forms, which name the mynotes client's journals and local copies.
        #expect(SHA256.hex(input) == hex)
        #expect(SHA256.hex(Array(input.utf8)) == hex)
        #expect(Array(input.utf8).withUnsafeBytes { SHA256.hex($0) } == hex)
    }

    @Test func generatesDistinctURLSafeTokens() throws {
        let tokens = try (0..<100).map { _ in try AccessToken.generate().text }
        #expect(Set(tokens).count == 100)
        for token in tokens {
            #expect(token.count == 43)
            #expect(
                token.allSatisfy {
                    $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_")
                })
        }
    }

    @Test func storesTheSHA256OfTheTokenText() throws {
        let token = try AccessToken.generate()
        #expect(token.hash == SHA256.hash(token.text))
        #expect(token.hash != SHA256.hash(token.text + "x"))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
