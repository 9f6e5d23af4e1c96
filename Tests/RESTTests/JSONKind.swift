/// The JSON type of a value, nested values included, as `JSONDecoder` reads it.
indirect enum JSONKind: Decodable {
    case null, boolean, integer, number, string
    case array([JSONKind])
    case object([String: JSONKind])

    var name: String {
        switch self {
        case .null: "null"
        case .boolean: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if (try? value.decode(Bool.self)) != nil {
            self = .boolean
        } else if (try? value.decode(Int64.self)) != nil {
            self = .integer
        } else if (try? value.decode(Double.self)) != nil {
            self = .number
        } else if (try? value.decode(String.self)) != nil {
            self = .string
        } else if let elements = try? value.decode([JSONKind].self) {
            self = .array(elements)
        } else {
            self = .object(try value.decode([String: JSONKind].self))
        }
    }
}
