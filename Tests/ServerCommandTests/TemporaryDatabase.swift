import Foundation

/// A database location in a fresh temporary folder, removed by `remove()`.
struct TemporaryDatabase {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mynotes-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var location: String { "sqlite:" + directory.appendingPathComponent("notes.sqlite").path }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
