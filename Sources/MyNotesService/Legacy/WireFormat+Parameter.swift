import MyNotesProtocol

extension WireFormat {
    /// Parses `type` as the server reads it, leniently: missing or empty is JSON;
    /// otherwise `JSON` or `XML` in any case. `nil` for anything else (answered -8, in JSON).
    init?(parameter: String?) {
        switch parameter?.lowercased() {
        case nil, "", "json": self = .json
        case "xml": self = .xml
        default: return nil
        }
    }
}
