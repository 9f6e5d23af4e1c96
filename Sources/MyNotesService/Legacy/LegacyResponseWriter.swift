import HTTPCore
import MyNotesProtocol
import TextEscaping

/// Writes legacy answers byte for byte as the old PHP service did, in JSON or XML.
/// Every protocol answer, failures included, is HTTP 200.
struct LegacyResponseWriter {
    let format: WireFormat
    let language: MessageLanguage
    let quota: Int

    func response(for outcome: LegacyOutcome) -> HTTPResponse {
        let body: [UInt8]
        switch outcome {
        case .notes(let notes):
            var out: [UInt8] = []
            out.reserveCapacity(Self.estimatedSize(of: notes))
            appendQuery(notes, to: &out)
            body = out
        case .notePages(let pages):
            return streamedResponse(pages)
        case .answered(let response):
            return response
        case .added, .done, .failure:
            body =
                switch format {
                case .json: json(outcome)
                case .xml: xml(outcome)
                }
        }
        return HTTPResponse(status: .ok, contentType: format.contentType, body: body)
    }

    private func json(_ outcome: LegacyOutcome) -> [UInt8] {
        var out: [UInt8] = []
        switch outcome {
        case .notes, .notePages, .answered: break
        case .added(let id):
            out.append(contentsOf: #"{"ResultCode":0,"ID":""#.utf8)
            out.append(contentsOf: String(id).utf8)
            out.append(contentsOf: #""}"#.utf8)
        case .done:
            out.append(contentsOf: #"{"ResultCode":0}"#.utf8)
        case .failure(let code):
            out.append(contentsOf: #"{"ResultCode":"#.utf8)
            out.append(contentsOf: String(code.rawValue).utf8)
            out.append(contentsOf: #","Message":"#.utf8)
            JSONText.appendString(code.message(in: language, quota: quota), to: &out)
            out.append(UInt8(ascii: "}"))
        }
        return out
    }

    /// Writes a non-negative ID's digits straight into the buffer, without a `String`.
    static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var remaining = value.magnitude
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0
            out.append(contentsOf: buffer[start...])
        }
    }

    private func xml(_ outcome: LegacyOutcome) -> [UInt8] {
        var out = Array(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)
        out.append(contentsOf: "\n<Response><ResultCode>".utf8)
        switch outcome {
        case .notes, .notePages, .answered: break
        case .added(let id):
            out.append(contentsOf: "0</ResultCode><ID>".utf8)
            out.append(contentsOf: String(id).utf8)
            out.append(contentsOf: "</ID>".utf8)
        case .done:
            out.append(contentsOf: "0</ResultCode>".utf8)
        case .failure(let code):
            out.append(contentsOf: String(code.rawValue).utf8)
            out.append(contentsOf: "</ResultCode><Message>".utf8)
            XMLText.appendEscaped(code.message(in: language, quota: quota), to: &out)
            out.append(contentsOf: "</Message>".utf8)
        }
        out.append(contentsOf: "</Response>\n".utf8)
        return out
    }
}
