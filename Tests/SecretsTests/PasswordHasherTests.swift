import Secrets
import Testing

@Suite struct PasswordHasherTests {
    @Test func aHashVerifiesItsPasswordAndNoOther() throws {
        let hasher = PasswordHasher()
        let stored = try hasher.hash("correct horse 密码")
        #expect(stored.hasPrefix("pbkdf2-sha256$600000$"))
        #expect(hasher.verify("correct horse 密码", against: stored))
        #expect(!hasher.verify("correct horse 密碼", against: stored))
        #expect(!hasher.verify("", against: stored))
    }

    @Test func eachHashHasItsOwnSalt() throws {
        let hasher = PasswordHasher(iterations: 1_000)
        let first = try hasher.hash("same password")
        let second = try hasher.hash("same password")
        #expect(first != second)
        #expect(hasher.verify("same password", against: second))
    }

    /// RFC 7914 §11's PBKDF2-HMAC-SHA256 vector ("passwd", "salt", c = 1), first 32 bytes.
    @Test func matchesAPublishedVector() {
        let encoded =
            "pbkdf2-sha256$1$73616c74$"
            + "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
        #expect(PasswordHasher().verify("passwd", against: encoded))
        #expect(!PasswordHasher().verify("passwe", against: encoded))
    }

    @Test(arguments: [
        "", "pbkdf2-sha256$600000$00", "md5$1$00$00", "pbkdf2-sha256$x$00$00",
        "pbkdf2-sha256$1$zz$55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc",
        "pbkdf2-sha256$0$73616c74$55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc",
    ])
    func malformedEncodingsMatchNothing(encoded: String) {
        #expect(!PasswordHasher().verify("passwd", against: encoded))
    }

    @Test func theStandardCostIsOWASPsAndTheTestingCostIsFarBelow() {
        #expect(PasswordHasher.standard.iterations >= 600_000)
        #expect(PasswordHasher().iterations == PasswordHasher.standard.iterations)
        #expect(PasswordHasher.testing.iterations < PasswordHasher.standard.iterations / 100)
    }

    /// The cost is in the hash: a server at one cost verifies passwords hashed at another,
    /// so hashes made by the operator's command work on a test server and the other way.
    @Test(arguments: [
        (PasswordHasher.testing, PasswordHasher.standard),
        (PasswordHasher.standard, PasswordHasher.testing),
    ])
    func aHashVerifiesWhateverTheVerifiersCost(maker: PasswordHasher, checker: PasswordHasher)
        throws
    {
        let stored = try maker.hash("correct horse")
        #expect(stored.hasPrefix("pbkdf2-sha256$\(maker.iterations)$"))
        #expect(checker.verify("correct horse", against: stored))
        #expect(!checker.verify("correct horsf", against: stored))
    }

    @Test(arguments: [(0, 1), (-5, 1), (Int.max, Int(Int32.max))])
    func aCostOutsideWhatPBKDF2TakesIsClamped(asked: Int, used: Int) {
        #expect(PasswordHasher(iterations: asked).iterations == used)
    }
}
