/// The answer to `DELETE /api/v1/sessions`: `{"revoked":3}`, how many tokens stopped
/// working.
public struct APIRevoked: Codable, Sendable, Hashable {
    public var revoked: Int

    public init(revoked: Int) {
        self.revoked = revoked
    }
}
