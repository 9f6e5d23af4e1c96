import HTTPCore

/// The context of an operation on the caller's own session: the router's context and
/// the bearer token the request presented.
@dynamicMemberLookup
struct BearerContext: Sendable {
    var route: RequestContext
    let token: String

    subscript<Value>(dynamicMember path: KeyPath<RequestContext, Value>) -> Value {
        route[keyPath: path]
    }
}
