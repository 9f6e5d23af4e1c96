/// A route's path: literal segments and `{name}` parameters, e.g. `/api/v1/notes/{id}`.
public struct PathPattern: Sendable {
    /// How literal segments are compared with the request's path.
    public enum Matching: Sendable {
        case exact
        /// ASCII case-insensitive, for paths old clients spell in any case.
        case caseInsensitive
    }

    enum Segment: Sendable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]
    let matching: Matching

    public init(_ pattern: String, matching: Matching = .exact) {
        self.matching = matching
        segments = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            segment in
            if segment.hasPrefix("{"), segment.hasSuffix("}") {
                return .parameter(String(segment.dropFirst().dropLast()))
            }
            return .literal(matching == .caseInsensitive ? segment.lowercased() : String(segment))
        }
    }

    /// The parameters when `path` matches, else `nil`.
    func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard parts.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal):
                let candidate = matching == .caseInsensitive ? part.lowercased() : String(part)
                guard candidate == literal else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                parameters[name] = String(part)
            }
        }
        return parameters
    }
}
