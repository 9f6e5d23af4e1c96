extension KeyedDecodingContainer {
    /// The member's value, `nil` when the member is left out; unlike `decodeIfPresent`, a
    /// `null` is an error (`valueNotFound`), as request bodies have no `null`.
    func decodePresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        guard contains(key) else { return nil }
        return try decode(type, forKey: key)
    }
}
