import Foundation
import MyNotesTesting
import ServerLogging
import Synchronization
import Testing

@Suite struct LoggerTests {
    @Test func writesOnlyAtOrAboveItsLevel() {
        let collected = LogCapture()
        let logger = Logger(sink: collected.sink, level: .warning)
        logger.info("quiet")
        logger.warning("heard")
        logger.error("heard too")
        #expect(collected.lines.count == 2)
        #expect(collected.lines[0].contains(" warning heard"))
        #expect(collected.lines[1].contains(" error heard too"))
    }

    @Test func doesNotBuildMessagesBelowItsLevel() {
        let logger = Logger(sink: LogCapture().sink, level: .error)
        let built = Atomic<Bool>(false)
        func message() -> String {
            built.store(true, ordering: .relaxed)
            return "expensive"
        }
        logger.debug(message())
        let wasBuilt = built.load(ordering: .relaxed)
        #expect(!wasBuilt)
    }

    @Test func disabledWritesNothing() {
        #expect(!Logger.disabled.isEnabled(.critical))
        Logger.disabled.log(.critical, "nowhere")
    }

    @Test func textLinesCarryTimeLevelMessageAndMetadata() throws {
        let collected = LogCapture()
        var logger = Logger(sink: collected.sink, format: .text)
        logger[metadataKey: "request_id"] = "abc-1"
        logger.error("store failed", ["cause": "disk I/O error", "code": "778"])
        let line = try #require(collected.lines.first)
        let pattern =
            #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z error store failed request_id=abc-1 cause="disk I/O error" code=778$/#
        #expect(line.wholeMatch(of: pattern) != nil, "\(line)")
    }

    @Test func jsonLinesAreObjectsWithTheSameFields() throws {
        let collected = LogCapture()
        var logger = Logger(sink: collected.sink, format: .json)
        logger[metadataKey: "request_id"] = "abc-1"
        logger.warning("odd \"quote\"\n", ["note": "备忘录\u{1}"])
        let line = try #require(collected.lines.first)
        #expect(!line.contains("\n"))
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(object["level"] == "warning")
        #expect(object["message"] == "odd \"quote\"\n")
        #expect(object["request_id"] == "abc-1")
        #expect(object["note"] == "备忘录\u{1}")
        #expect(object["time"]?.hasSuffix("Z") == true)
    }

    @Test func jsonLinesEscapeAsTheServersAnswersDo() throws {
        let collected = LogCapture()
        let logger = Logger(sink: collected.sink, format: .json)
        logger.info("tab\t del\u{7F} bell\u{7} 日本 \u{2028}")
        let line = try #require(collected.lines.first)
        #expect(line.hasSuffix(#""message":"tab\t del\u007f bell\u0007 日本 \#u{2028}"}"#), "\(line)")
        #expect(LogText.jsonString("a\"b\\") == #""a\"b\\""#)
    }

    @Test(arguments: ["token", "password", "Authorization", "cookie"])
    func secretKeysAreRedacted(key: String) throws {
        for format in LogFormat.allCases {
            let collected = LogCapture()
            let logger = Logger(sink: collected.sink, format: format)
            logger.info("signing in", [key: "s3cret-value"])
            let line = try #require(collected.lines.first)
            #expect(!line.contains("s3cret-value"))
            #expect(line.contains("[redacted]"))
        }
    }

    @Test func textValuesCannotForgeLinesOrKeys() throws {
        let collected = LogCapture()
        let logger = Logger(sink: collected.sink)
        logger.info("line\nforged error", ["email": "a b=c\"d"])
        let line = try #require(collected.lines.first)
        #expect(!line.contains("\n"))
        #expect(line.hasSuffix(#"info line\nforged error email="a b=c\"d""#))
    }

    @Test func metadataKeysAreSetAndRemoved() {
        var logger = Logger(sink: LogCapture().sink)
        logger[metadataKey: "a"] = "1"
        logger[metadataKey: "a"] = "2"
        #expect(logger[metadataKey: "a"] == "2")
        #expect(logger.metadata.count == 1)
        logger[metadataKey: "a"] = nil
        #expect(logger.metadata.isEmpty)
    }

    @Test(arguments: LogLevel.allCases)
    func levelsAreNamedForTheCommandLine(level: LogLevel) {
        #expect(LogLevel(name: level.description) == level)
    }

    @Test func linesFromManyThreadsStayWhole() {
        let collected = LogCapture()
        let logger = Logger(sink: collected.sink, format: .json)
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            logger.info(String(repeating: "x", count: 500), ["n": String(index)])
        }
        #expect(collected.lines.count == 200)
        #expect(
            collected.lines.allSatisfy {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil
            })
    }
}
