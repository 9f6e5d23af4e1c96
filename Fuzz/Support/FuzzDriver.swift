import CLibFuzzer
import Foundation

/// Runs a fuzz target. Built with `-sanitize=fuzzer` it is libFuzzer, with libFuzzer's
/// command line; built without it (as `swift build` does) it replays inputs: each file
/// named on the command line, or every file of a folder, once. So every target builds and
/// runs in the normal build too, and a crash found by fuzzing replays in any build.
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
///     _ = NoteDate(FuzzInput(data, size).text)
///     return 0
/// }
/// FuzzDriver.main(testOneInput)
/// ```
public enum FuzzDriver {
    /// libFuzzer's `LLVMFuzzerTestOneInput`: one input, `0` to go on.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    public static func main(_ testOneInput: TestOneInput) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = mynotes_run_libfuzzer(&argc, &argv, testOneInput)
        if status >= 0 { exit(status) }
        exit(replay(CommandLine.arguments.dropFirst(), testOneInput))
    }

    private static func replay(_ paths: ArraySlice<String>, _ testOneInput: TestOneInput) -> Int32 {
        guard !paths.isEmpty else {
            FileHandle.standardError.write(
                Data(
                    """
                    usage: \(CommandLine.arguments[0]) FILE|FOLDER…
                    Built without -sanitize=fuzzer: replays each input once (scripts/fuzz.sh fuzzes).

                    """.utf8))
            return 2
        }
        var count = 0
        for path in paths {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("cannot read \(file)\n".utf8))
                    return 1
                }
                _ = data.withUnsafeBytes { raw in
                    testOneInput(raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
                }
                count += 1
            }
        }
        print("replayed \(count) inputs")
        return 0
    }

    private static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
            isFolder.boolValue
        else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }
    }
}
