import HTTPCore
import MyNotesProtocol

extension MessageLanguage {
    /// The language a request's `Accept-Language` prefers, over every field of that name
    /// joined into one list: HTTP defines several fields of a list header as one field
    /// with their values comma-separated, so the first among equals may come from an
    /// earlier field than the last.
    ///
    /// ```swift
    /// MessageLanguage(request: request)  // .chinese for "Accept-Language: zh-CN"
    /// ```
    init(request: HTTPRequest) {
        let values = request.headers.filter { $0.name.lowercased() == "accept-language" }
            .map(\.value)
        self.init(acceptLanguage: values.isEmpty ? nil : values.joined(separator: ", "))
    }
}
