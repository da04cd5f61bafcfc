import Foundation
@testable import Rasterizing
import Testing
import TestSupport
import TesseraCore

/// librsvg runs in tessera-svg-worker (issue 54, items 2 and 3): what a hostile SVG does to it —
/// a panic, a filter that would render for a day — costs that document alone, within its time
/// limit, and a worker whose answers are not its request's is never believed.
@Suite("SVG drawn in a separate process")
struct SVGWorkerTests {
    static let innocent = #"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="2" height="4" fill="blue"/></svg>"#

    private func document(_ text: String, seconds: Double = 10) throws(TesseraError) -> VectorDocument {
        try VectorDocument(bytes: Array(text.utf8), format: .svg, limits: VectorLimits(renderSeconds: seconds), path: "hostile.svg")
    }

    private func innocentRendersRight() throws {
        let bitmap = try document(Self.innocent).render(scale: .x1)
        #expect(Array(bitmap.pixels[0..<4]) == [0, 0, 255, 255] && Array(bitmap.pixels[12..<16]) == [0, 0, 0, 0])
    }

    @Test("an SVG that makes librsvg panic fails its own render, named, and the next SVG draws right")
    func panicFailsAlone() throws {
        let error = #expect(throws: TesseraError.self) { try document(HostileVectors.panickingSVG).render(scale: .x1) }
        #expect(error?.origin == .rasterize && error?.file == "hostile.svg")
        #expect(error?.reason.contains("librsvg crashed on this file (signal \(SIGABRT)") == true, "\(String(describing: error))")
        try innocentRendersRight()
    }

    @Test("an SVG filter that would render for a day stops at the time limit, and its other scales fail at once")
    func runawayFilterStopsAtItsLimit() throws {
        // Another file from the other tests' (the size differs), so no earlier test ran it out of time.
        let text = HostileVectors.endlessSVG(width: 101)
        let start = ContinuousClock.now
        let error = #expect(throws: TesseraError.self) { try document(text, seconds: 1).render(scale: .x1) }
        #expect(error?.kind == .limitExceeded && error?.reason.contains("over its time limit of 1 s") == true, "\(String(describing: error))")
        // The limit is wall-clock, and the worker is killed: minutes would mean it was not.
        #expect(ContinuousClock.now - start < .seconds(60))
        let again = #expect(throws: TesseraError.self) { try document(text, seconds: 1).render(scale: .x2) }
        #expect(again?.reason.contains("at another scale of this file") == true, "\(String(describing: again))")
        try innocentRendersRight()
    }

    @Test("a worker whose answer is not its request's (another nonce, a length not asked for, bytes before it) is stopped and never believed",
          arguments: ["nonce", "length", "chatter"])
    func desynchronisedWorkerIsStopped(mode: String) throws {
        let fake = "\(VectorFixtures.folder)/../servers/desynchronising-svg-worker.py"
        let limiter = try #require(WorkerProcess.limiter)
        let worker = try SVGWorker(program: ["/usr/bin/python3", fake, mode], limiter: limiter, addressSpace: 1 << 30, cpuSeconds: 10)
        #expect(worker.libraryVersion == "librsvg (a hostile stand-in)")
        let outcome = worker.ask(.render, document: Array(Self.innocent.utf8), width: 4, height: 4, answerBytes: 64, seconds: 10)
        guard case .desynchronised = outcome else {
            Issue.record("\(mode): \(outcome)")
            return
        }
        #expect(!worker.process.isAlive)
    }

    @Test("workers killed at their time limit are reaped: no zombie is left behind")
    func killedWorkersAreReaped() throws {
        let text = HostileVectors.endlessSVG(width: 102)
        _ = try? document(text, seconds: 1).render(scale: .x1)
        // A child that ended is reaped at once; another suite's may be between its end and its reaping.
        var zombies: [String] = []
        for _ in 0..<20 {
            zombies = ChildProcesses.zombies().filter { $0.contains("svg-wor") || $0.contains("mutool") || $0.contains("prlimit") }
            if zombies.isEmpty { break }
            usleep(100_000)
        }
        #expect(zombies.isEmpty, "\(zombies)")
    }
}

/// This process's children, from /proc.
enum ChildProcesses {
    /// The command names of children that ended and were not reaped.
    static func zombies() -> [String] {
        let me = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> String? in
            guard Int32(entry) != nil, let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let name = stat[stat.index(after: stat.firstIndex(of: "(")!)..<close]
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 2, fields[0] == "Z", Int32(fields[1]) == me else { return nil }
            return String(name)
        }
    }
}
