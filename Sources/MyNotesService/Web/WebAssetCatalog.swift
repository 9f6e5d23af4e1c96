import Foundation

/// The browser app's files, read once into memory when the server starts, so that
/// serving them is a dictionary look-up and never file I/O.
public struct WebAssetCatalog: Sendable {
    /// The name of the folder inside the module's resource bundle (`.copy("Web/Assets")`).
    static let resourceFolder = "Assets"

    private let assets: [String: WebAsset]

    public init(_ assets: [WebAsset]) {
        self.assets = Dictionary(assets.map { ($0.name, $0) }) { first, _ in first }
    }

    /// Reads every regular file directly inside `directory`.
    public init(directory: URL) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        var assets: [WebAsset] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            assets.append(WebAsset(name: name, body: Array(try Data(contentsOf: url))))
        }
        self.init(assets)
    }

    /// The files shipped in this module's resource bundle. Loaded on first use — when
    /// the router is built at start-up — and kept for the life of the process.
    ///
    /// SwiftPM puts the bundle (`MyNotes_MyNotesService.resources`) beside the
    /// executable in `.build/debug` and `.build/release`; a server copied elsewhere must
    /// take that folder along. Without it the server stops at start-up with a message
    /// naming the folder, rather than serving an app with missing pieces.
    public static let bundled: WebAssetCatalog = {
        guard let folder = Bundle.module.url(forResource: resourceFolder, withExtension: nil)
        else {
            fatalError(
                "MyNotes: the web app's '\(resourceFolder)' folder is missing from "
                    + Bundle.module.bundlePath)
        }
        do {
            let catalog = try WebAssetCatalog(directory: folder)
            guard catalog["index.html"] != nil else {
                fatalError("MyNotes: index.html is missing from \(folder.path)")
            }
            return catalog
        } catch {
            fatalError("MyNotes: cannot read the web app from \(folder.path): \(error)")
        }
    }()

    public subscript(name: String) -> WebAsset? { assets[name] }

    /// Every file's name, sorted.
    public var names: [String] { assets.keys.sorted() }
}
