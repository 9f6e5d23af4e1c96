import MyNotesProtocol

extension LegacyAction {
    /// Parses `action` as the server reads it, leniently: in any case (`Query`, `ADD`).
    /// `nil` for a missing, empty or unknown action (answered -8).
    init?(parameter: String?) {
        guard let parameter, let action = Self(rawValue: parameter.lowercased()) else {
            return nil
        }
        self = action
    }
}
