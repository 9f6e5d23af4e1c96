/// The token of an `Authorization: Bearer <token>` header (RFC 6750).
struct BearerToken {
    let text: String

    init?(authorization: String?) {
        guard let authorization else { return nil }
        let parts = authorization.split(
            separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].drop { $0 == " " }
        guard !token.isEmpty else { return nil }
        text = String(token)
    }
}
