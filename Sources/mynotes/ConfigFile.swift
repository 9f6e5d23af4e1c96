import CommandLineSupport
import Foundation
import MyNotesKit

/// The settings `mynotes login` and `signup` save: `$XDG_CONFIG_HOME/mynotes/config.json`
/// (default `~/.config/mynotes/config.json`), readable by its owner only, since it holds a token.
struct ConfigFile: Codable, Equatable {
    /// The API the account was logged in with; absent in files from before REST (legacy).
    var api: ServerAPI?
    var server: String
    var email: String
    var token: String?

    static func url(environment: [String: String]) -> URL {
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home).appendingPathComponent(".config")
        }
        return base.appendingPathComponent("mynotes").appendingPathComponent("config.json")
    }

    /// Saves a REST session for later commands and returns where.
    static func save(
        _ session: Session, server: URL, environment: [String: String]
    ) throws(CommandFailure) -> URL {
        try ConfigFile(
            api: .rest, server: server.absoluteString, email: session.email, token: session.token
        ).save(environment: environment)
    }

    static func load(environment: [String: String]) throws(CommandFailure) -> ConfigFile? {
        let url = url(environment: environment)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(ConfigFile.self, from: data)
        } catch {
            throw CommandFailure(
                "cannot read \(url.path): \(Self.reason(error)); fix it, or remove it and run "
                    + "'mynotes login' again")
        }
    }

    /// What is wrong with the file, in words rather than a decoder's dump.
    private static func reason(_ error: any Error) -> String {
        let path = { (codingPath: [any CodingKey]) in
            codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error as? DecodingError {
        case .dataCorrupted(let context)? where context.codingPath.isEmpty:
            return "it is not valid JSON"
        case .dataCorrupted(let context)?:
            return "the value of '\(path(context.codingPath))' is not valid"
        case .keyNotFound(let key, _)?:
            return "'\(key.stringValue)' is missing"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "'\(path(context.codingPath))' has a value of the wrong kind"
        default:
            return error.localizedDescription
        }
    }

    /// Writes the file with mode 0600 from the start, so the token is never readable by others.
    func save(environment: [String: String]) throws(CommandFailure) -> URL {
        let url = Self.url(environment: environment)
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(self)
            let temporary = directory.appendingPathComponent(".config.json.\(getpid())")
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard descriptor >= 0 else {
                throw CommandFailure("cannot write \(temporary.path)")
            }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            handle.write(data)
            fchmod(descriptor, 0o600)
            try handle.close()
            guard rename(temporary.path, url.path) == 0 else {
                throw CommandFailure("cannot write \(url.path)")
            }
            return url
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("cannot write \(url.path): \(error)")
        }
    }
}
