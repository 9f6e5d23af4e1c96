import MyNotesDomain
import Testing

@testable import StorageSupport

/// `String(storedText:)`: a database's bytes as text, the same as `String(decoding:as:)`
/// gives for any bytes, valid or not.
struct StoredTextTests {
    @Test(
        arguments: [
            Array("Buy milk".utf8), Array("会议 备忘录 😀 ß É e\u{301}".utf8), [],
            [0x66, 0x80, 0x6F],  // a continuation byte alone
            [0xE4, 0xBC],  // a character cut short
            [0xED, 0xA0, 0x80],  // a surrogate
            [0xC0, 0xAF],  // an overlong form
        ] as [[UInt8]])
    func readsAsTheRepairingDecoderDoes(bytes: [UInt8]) {
        let text = bytes.withUnsafeBufferPointer { String(storedText: $0) }
        #expect(text == String(decoding: bytes, as: UTF8.self))
    }
}
