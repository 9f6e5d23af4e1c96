/// Whether anyone may create an account through `POST /api/v1/accounts`.
///
/// ```swift
/// ServiceConfiguration(signup: .closed)  // what `mynotes-server serve --no-signup` runs with
/// ```
public enum SignupPolicy: Sendable, Hashable {
    /// Anyone may sign up (the default).
    case open
    /// Only the operator creates accounts (`mynotes-server accounts add`, `--no-signup`).
    case closed
}
