/// The `type` parameter: how the answer is written.
enum WireFormat {
    case json, xml

    /// Parses `type`: missing or empty is JSON; otherwise `JSON` or `XML` in any case.
    init?(parameter: String?) {
        switch parameter?.lowercased() {
        case nil, "", "json": self = .json
        case "xml": self = .xml
        default: return nil
        }
    }

    var contentType: String {
        switch self {
        case .json: "application/json; charset=utf-8"
        case .xml: "text/xml; charset=utf-8"
        }
    }
}
