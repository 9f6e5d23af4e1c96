import Foundation
import MyNotesProtocol

/// Every way a ``NotesReplica`` call can fail.
///
/// ```swift
/// do {
///     try await replica.sync()
/// } catch .client(let error) where RetryPolicy.isTransient(error) {
///     // offline: the local changes stay queued for the next sync
/// } catch {
///     print(error.message(in: .english))
/// }
/// ```
public enum ReplicaError: Error, Sendable {
    /// The server or the network failed during a sync; what was done before is kept.
    case client(NotesClientError)
    /// The replica's store could not be read or written; `detail` says what and why.
    case store(String)
    /// The stored state is not a replica's (damaged, or from a newer version of the SDK).
    case unreadableState(String)
    /// No such note in the replica.
    case noSuchNote(ReplicaNoteID)
    /// No such conflict (already resolved?).
    case noSuchConflict(Int)
    /// A note's content must not be empty.
    case emptyContent

    /// The protocol's code where one fits, as the other SDK errors carry it.
    public var resultCode: ResultCode? {
        switch self {
        case .client(let error): return error.resultCode
        case .noSuchNote: return .noSuchNote
        case .emptyContent: return .missingContent
        case .store, .unreadableState, .noSuchConflict: return nil
        }
    }

    /// The message people read, in `language`.
    public func message(in language: MessageLanguage) -> String {
        let chinese = language == .chinese
        switch self {
        case .client(let error): return error.message(in: language)
        case .store(let detail):
            return (chinese ? "无法读写本地副本：" : "The local copy could not be read or written: ")
                + detail
        case .unreadableState(let detail):
            return (chinese ? "本地副本已损坏或版本过新：" : "The local copy is damaged or too new: ")
                + detail
        case .noSuchNote(let id):
            return chinese ? "本地副本中没有笔记 \(id)。" : "There is no note \(id) in the local copy."
        case .noSuchConflict(let id):
            return chinese ? "没有编号为 \(id) 的冲突。" : "There is no conflict \(id)."
        case .emptyContent: return ResultCode.missingContent.message(in: language, quota: 0)
        }
    }
}

extension ReplicaError: LocalizedError {
    /// The message in the language of the current locale.
    public var errorDescription: String? {
        message(in: MessageLanguage(localeIdentifier: Locale.current.identifier))
    }
}
