import PercentEncoding

/// A route's path: literal segments and `{name}` parameters, e.g. `/api/v1/notes/{id}`.
public struct PathPattern: Sendable {
    /// How literal segments are compared with the request's path.
    public enum Matching: Sendable {
        case exact
        /// ASCII case-insensitive, for paths old clients spell in any case.
        case caseInsensitive
    }

    enum Segment: Sendable {
        case literal([UInt8])
        case parameter(String)
    }

    let segments: [Segment]
    let matching: Matching
    /// The pattern as written: the `route` label of its metrics.
    public let text: String

    public init(_ pattern: String, matching: Matching = .exact) {
        self.matching = matching
        text = pattern
        segments = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            segment in
            if segment.hasPrefix("{"), segment.hasSuffix("}") {
                return .parameter(String(segment.dropFirst().dropLast()))
            }
            return .literal(Array(segment.utf8))
        }
    }

    /// The parameters, decoded, when `rawPath` (still percent-encoded) matches, else
    /// `nil`. Each segment is decoded on its own, after the path is split at its real
    /// slashes: `%2F` decodes to a `/` inside a segment, which no literal holds. Runs for
    /// every route on every request, so it compares bytes in place and allocates only for
    /// parameters and for segments that hold escapes.
    func match(_ rawPath: String) -> [String: String]? {
        var path = rawPath
        return path.withUTF8 { bytes -> [String: String]? in
            guard bytes.first == UInt8(ascii: "/") else { return nil }
            var parameters: [String: String] = [:]
            var start = 1
            for (index, segment) in segments.enumerated() {
                var end = start
                var escaped = false
                while end < bytes.count, bytes[end] != UInt8(ascii: "/") {
                    escaped = escaped || bytes[end] == UInt8(ascii: "%")
                    end += 1
                }
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
                let matched = Self.decoded(raw, if: escaped) { part in
                    switch segment {
                    case .literal(let literal):
                        return literal.count == part.count && equal(literal, part)
                    case .parameter(let name):
                        guard !part.isEmpty else { return false }
                        parameters[name] = String(decoding: part, as: UTF8.self)
                        return true
                    }
                }
                guard matched else { return nil }
                let isLast = index == segments.count - 1
                guard isLast ? end == bytes.count : end < bytes.count else { return nil }
                start = end + 1
            }
            return parameters
        }
    }

    /// Calls `body` with the segment's bytes, percent-decoded when it has escapes.
    private static func decoded(
        _ raw: UnsafeBufferPointer<UInt8>, if escaped: Bool,
        _ body: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        guard escaped else { return body(raw) }
        return PercentDecoder.url.decodeBytesLeniently(raw).withUnsafeBufferPointer(body)
    }

    private func equal(_ literal: [UInt8], _ part: UnsafeBufferPointer<UInt8>) -> Bool {
        switch matching {
        case .exact: literal.elementsEqual(part)
        case .caseInsensitive: literal.elementsEqual(part, by: HTTPHeaders.asciiCaseInsensitive)
        }
    }
}
