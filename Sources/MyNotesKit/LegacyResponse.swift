import Foundation
import MyNotesProtocol

/// A protocol answer, read from JSON or XML.
struct LegacyResponse: Sendable, Equatable {
    var resultCode: Int
    var message: String?
    var id: Int?
    var notes: [Note]?

    /// Reads a body in the given format.
    static func decode(_ data: Data, format: WireFormat) throws(NotesClientError) -> LegacyResponse
    {
        switch format {
        case .json: return try decodeJSON(data)
        case .xml: return try XMLResponseParser.parse(data)
        }
    }

    /// The answer as a success, or as the typed error of its `ResultCode`.
    func validated() throws(NotesClientError) -> LegacyResponse {
        guard resultCode < 0 else { return self }
        guard let code = ResultCode(rawValue: resultCode) else {
            throw .invalidResponse(.unknownResultCode(resultCode, serverMessage: message))
        }
        throw .server(code, serverMessage: message)
    }

    private static func decodeJSON(_ data: Data) throws(NotesClientError) -> LegacyResponse {
        let wire: WireResponse
        do {
            wire = try JSONDecoder().decode(WireResponse.self, from: data)
        } catch {
            throw .invalidResponse(.malformed(format: .json, detail: String(describing: error)))
        }
        var notes: [Note]?
        if let records = wire.Record {
            notes = []
            for record in records {
                notes?.append(
                    try makeNote(id: record.ID.value, date: record.CDate, content: record.Content))
            }
        }
        return LegacyResponse(
            resultCode: wire.ResultCode, message: wire.Message, id: wire.ID?.value, notes: notes)
    }

    static func makeNote(id: Int?, date: String?, content: String?) throws(NotesClientError) -> Note
    {
        guard let id else {
            throw .invalidResponse(.malformed(format: .json, detail: "a note without an ID"))
        }
        guard let text = date, let noteDate = NoteDate(text) else {
            throw .invalidResponse(.invalidDate(date ?? ""))
        }
        return Note(id: id, date: noteDate, content: content ?? "")
    }

    // Field names are the wire's, so that the decoder needs no key mapping.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    private struct WireResponse: Decodable {
        var ResultCode: Int
        var Message: String?
        var ID: FlexibleID?
        var Record: [WireNote]?
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    private struct WireNote: Decodable {
        var ID: FlexibleID
        var CDate: String?
        var Content: String?
    }

    /// An ID sent as a string of digits (the PHP service's way) or as a number.
    struct FlexibleID: Decodable {
        var value: Int?

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                value = number
            } else {
                value = Int(try container.decode(String.self))
            }
        }
    }
}
