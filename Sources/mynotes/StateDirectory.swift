import Foundation

/// Where `mynotes` keeps what it learns between runs (import journals, local copies):
/// `$XDG_STATE_HOME/mynotes` (default `~/.local/state/mynotes`).
enum StateDirectory {
    /// `…/mynotes/NAME`, for `environment`.
    static func url(_ name: String, environment: [String: String]) -> URL {
        let base: URL
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home).appendingPathComponent(".local/state")
        }
        return base.appendingPathComponent("mynotes").appendingPathComponent(name)
    }
}
