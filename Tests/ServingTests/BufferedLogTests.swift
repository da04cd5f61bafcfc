import Foundation
import Logging
import NIOPosix
import Serving
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Buffered request log")
struct BufferedLogTests {
    @Test("every line reaches the file once logged, whole and in swift-log's stream format, also when many threads log at once")
    func linesWholeAndPrompt() throws {
        let file = try LogFile()
        defer { file.remove() }
        let path = file.path, logger = file.logger
        logger.info("GET /healthz 200 3 0.01")
        logger.debug("below the level: not written")
        logger.warning("second", metadata: ["b": "2", "a": "1"])
        // No flush: a quiet server's lines are in the file as soon as they are logged.
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        // 2026-11-23T12:00:00+0000 info tessera.test: [ServingTests] GET /healthz 200 3 0.01
        let pattern = #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} "#
        #expect(lines.allSatisfy { $0.range(of: pattern, options: .regularExpression) != nil })
        #expect(lines[0].hasSuffix(" info tessera.test: [ServingTests] GET /healthz 200 3 0.01"))
        #expect(lines[1].hasSuffix(" warning tessera.test: a=1 b=2 [ServingTests] second"))

        // Eight threads at once: every line arrives once, none cut into another, each thread's in order.
        let padding = String(repeating: "x", count: 200)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 { logger.info("t\(thread) \(index) \(padding)") }
        }
        let all = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst(2)
        #expect(all.count == 8 * 500)
        for thread in 0..<8 {
            let mine = all.filter { $0.contains("] t\(thread) ") }
            #expect(mine.map { Int($0.split(separator: " ")[5])! } == Array(0..<500))
            #expect(mine.allSatisfy { $0.hasSuffix(padding) && $0.range(of: pattern, options: .regularExpression) != nil })
        }
    }

    @Test("lines logged on an event loop are in the file, in order, once the loop's iteration is over, without a flush")
    func eventLoopLinesWrittenAfterIteration() throws {
        let file = try LogFile()
        defer { file.remove() }
        let path = file.path, logger = file.logger
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        try loop.submit { for index in 0..<100 { logger.info("on the loop \(index)") } }.wait()
        logger.info("off the loop")  // waits for the loop's write, then goes with it or after it
        try loop.submit {}.wait()  // tasks run in order: the write scheduled above has run
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 101)
        #expect(lines.prefix(100).map { Int($0.split(separator: " ").last!)! } == Array(0..<100))
        #expect(lines.last?.hasSuffix(" info tessera.test: [ServingTests] off the loop") == true)
    }

    @Test("lines logged on an event loop soon after a write wait one pause for theirs, then arrive together, in order")
    func busyLoopLinesWaitOnePause() throws {
        let file = try LogFile()
        defer { file.remove() }
        let path = file.path, logger = file.logger
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        try loop.submit { logger.info("first") }.wait()
        try loop.submit {}.wait()
        #expect(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count == 1)
        // Written a moment ago: these wait for the pause, then go out in one write.
        try loop.submit { for index in 0..<50 { logger.info("busy \(index)") } }.wait()
        try loop.submit {}.wait()
        let before = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count
        Thread.sleep(forTimeInterval: 0.1)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(before == 1 || before == 51)  // 1 unless the machine stalled for the whole pause
        #expect(lines.count == 51)
        #expect(lines.dropFirst().map { Int($0.split(separator: " ").last!)! } == Array(0..<50))
    }
}

/// A request log written to a new temporary file.
private struct LogFile {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-log-\(UUID().uuidString)").path
    let descriptor: Int32
    let logger: Logger

    init() throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        logger = BufferedLogOutput(descriptor: descriptor).logger(label: "tessera.test")
    }

    func remove() {
        close(descriptor)
        try? FileManager.default.removeItem(atPath: path)
    }
}
