import Foundation
import Logging
import Serving
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Buffered request log")
struct BufferedLogTests {
    @Test("lines reach the file only on flush (or a full batch), whole, in order, in swift-log's stream format")
    func batchesInOrder() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-log-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let output = BufferedLogOutput(descriptor: descriptor)
        let logger = output.logger(label: "tessera.test")
        logger.info("GET /healthz 200 3 0.01")
        logger.debug("below the level: not written")
        logger.warning("second", metadata: ["b": "2", "a": "1"])
        #expect(try String(contentsOfFile: path, encoding: .utf8).isEmpty)
        output.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        // 2026-11-23T12:00:00+0000 info tessera.test: [ServingTests] GET /healthz 200 3 0.01
        let pattern = #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} "#
        #expect(lines.allSatisfy { $0.range(of: pattern, options: .regularExpression) != nil })
        #expect(lines[0].hasSuffix(" info tessera.test: [ServingTests] GET /healthz 200 3 0.01"))
        #expect(lines[1].hasSuffix(" warning tessera.test: a=1 b=2 [ServingTests] second"))
        // Past a batch's worth the lines go out without a flush.
        let line = String(repeating: "x", count: 1000)
        for index in 0..<100 { logger.info("\(index) \(line)") }
        let written = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(written.count > 2)
        #expect(written.dropFirst(2).enumerated().allSatisfy { $0.element.contains("] \($0.offset) x") })
    }
}
