import HTTPCore
import MyNotesDomain

/// The context of an operation on a signed-in account's notes: the router's context,
/// the account its bearer token signs in, and the token (a live stream checks it again
/// later, and ends when it is revoked).
@dynamicMemberLookup
struct SignedInContext: Sendable {
    var route: RequestContext
    let token: String
    let account: Account

    subscript<Value>(dynamicMember path: KeyPath<RequestContext, Value>) -> Value {
        route[keyPath: path]
    }
}
