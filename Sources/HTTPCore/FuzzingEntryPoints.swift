/// HTTPCore's parsers of outside input that are not public API, as the libFuzzer targets
/// in `Fuzz/` call them. Package access: no client of the library sees them.
///
/// ```swift
/// FuzzingEntryPoints.headerSectionIsMalformed(["Host": "a", "host": "b"], version: "HTTP/1.1")
/// // true: two Host fields
/// ```
package enum FuzzingEntryPoints {
    /// The server's check of a request's header fields, before any body is read.
    package static func headerSectionIsMalformed(_ headers: HTTPHeaders, version: String) -> Bool {
        HeaderValidation.isMalformed(headers, version: version)
    }
}
