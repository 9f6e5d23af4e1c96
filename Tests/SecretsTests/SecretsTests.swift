import Secrets
import Testing

@Suite struct SecretsTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ])
    func hashesKnownVectors(input: String, hex: String) {
        let digest = SHA256.hash(input)
        #expect(digest.map { String($0, radix: 16).leftPadded(to: 2) }.joined() == hex)
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
