import Foundation

/// One input of a fuzz target, in the forms the parsers take.
///
/// ```swift
/// let input = FuzzInput(data, size)
/// let (contentType, body) = input.splitAtFirstLine()
/// ```
public struct FuzzInput {
    public let bytes: [UInt8]

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var data: Data { Data(bytes) }

    /// The bytes as UTF-8, invalid sequences replaced: what a server or client gets when it
    /// decodes text it was sent.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The first line (without its LF) and the rest, for targets that take two inputs.
    public func splitAtFirstLine() -> (first: FuzzInput, rest: FuzzInput) {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            return (self, FuzzInput(bytes: []))
        }
        return (
            FuzzInput(bytes: Array(bytes[..<newline])),
            FuzzInput(bytes: Array(bytes[(newline + 1)...]))
        )
    }

    /// The lines, split at LF.
    public var lines: [FuzzInput] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            FuzzInput(bytes: Array($0))
        }
    }
}
