/// The `action` parameter of a legacy request.
enum LegacyAction: String, CaseIterable {
    case query, add, modify, remove

    /// Parses `action` case-insensitively; `nil` for missing, empty or unknown.
    init?(parameter: String?) {
        guard let parameter, let action = Self(rawValue: parameter.lowercased()) else {
            return nil
        }
        self = action
    }
}
