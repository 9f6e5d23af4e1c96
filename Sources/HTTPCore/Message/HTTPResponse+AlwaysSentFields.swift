extension HTTPResponse {
    /// Fields every answer the server sends carries: added where it queues the answer,
    /// unless the responder set them, so that the server's own refusals, 404s and 503s
    /// have them too. `nosniff`: no browser may guess a body's type and run it.
    public static let alwaysSentFields: [HTTPHeaders.Field] = [
        (name: "X-Content-Type-Options", value: "nosniff")
    ]

    /// The ``alwaysSentFields`` this response does not set itself.
    ///
    /// ```swift
    /// HTTPResponse.plain(.notFound).missingAlwaysSentFields  // [X-Content-Type-Options: nosniff]
    /// ```
    public var missingAlwaysSentFields: [HTTPHeaders.Field] {
        Self.alwaysSentFields.filter { headers[$0.name] == nil }
    }
}
