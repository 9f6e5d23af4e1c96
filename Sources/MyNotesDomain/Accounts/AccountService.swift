import Secrets

/// Creates accounts and issues their tokens. A token is shown once, when issued;
/// only its hash is stored.
///
/// ```swift
/// let (account, token) = try await AccountService(store: store).create(email: "a@example.com")
/// print(token)
/// ```
public struct AccountService: Sendable {
    package let store: any AccountStore

    public init(store: any AccountStore) {
        self.store = store
    }

    /// Creates an account and returns it with its new access token.
    public func create(email rawEmail: String) async throws(AccountError) -> (Account, String) {
        let email: String
        do {
            email = try Email(validating: rawEmail).text
        } catch {
            throw .invalidEmail(rawEmail, error)
        }
        let token = try Self.newToken()
        do {
            return (try await store.createAccount(email: email, tokenHash: token.hash), token.text)
        } catch .duplicateEmail {
            throw .duplicateEmail(email)
        } catch {
            throw .store(error)
        }
    }

    /// Revokes every token of the account (sessions included) and issues one new one.
    /// The operator's commands name an account as stored, without refusing any character,
    /// so that an account made before emails were checked can still be reset or removed.
    public func resetToken(email rawEmail: String) async throws(AccountError) -> String {
        let email = Email.trimmingSpaces(rawEmail)
        let token = try Self.newToken()
        let replaced: Bool
        do {
            replaced = try await store.replaceTokens(email: email, tokenHash: token.hash)
        } catch {
            throw .store(error)
        }
        guard replaced else { throw .noSuchAccount(email) }
        return token.text
    }

    /// Removes the account and its notes.
    public func remove(email rawEmail: String) async throws(AccountError) {
        let email = Email.trimmingSpaces(rawEmail)
        let removed: Bool
        do {
            removed = try await store.removeAccount(email: email)
        } catch {
            throw .store(error)
        }
        guard removed else { throw .noSuchAccount(email) }
    }

    public func all() async throws(AccountError) -> [Account] {
        do {
            return try await store.allAccounts()
        } catch {
            throw .store(error)
        }
    }

    private static func newToken() throws(AccountError) -> AccessToken {
        do {
            return try AccessToken.generate()
        } catch {
            throw .randomUnavailable
        }
    }
}
