/// What the router learned about a request while matching it.
public struct RequestContext: Sendable {
    /// Values of the `{name}` segments of the matched path pattern.
    public var parameters: [String: String]

    public init(parameters: [String: String] = [:]) {
        self.parameters = parameters
    }
}
