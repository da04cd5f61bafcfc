import Decoding
import Encoding
import Foundation
import Testing
import TesseraCore

/// Runs the real `tessera` binary, as users and CI do.
struct TesseraProcess {
    static var executable: String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("tessera").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return "\(Workspace.packageRoot)/.build/debug/tessera"
    }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a chatty process never blocks on a full pipe.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

@Suite("Command line", .serialized)
struct CommandLineTests {
    let pipeline = "\(Workspace.packageRoot)/Pipelines/app-thinning.yml"

    @Test("run: a broken image exits 1 and names the file, the stage and the reason")
    func brokenInputExitsOne() throws {
        let workspace = try Workspace()
        try layOutMixedInput(in: workspace)
        let result = try TesseraProcess.run(["run", pipeline, "--input", workspace.input,
                                             "--output", "\(workspace.root)/out", "--progress", "plain"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: \(workspace.input)/broken/cut@3x.png: decode: PNG: "))
        #expect(result.stdout.contains("Built 6 of 9 variants of 2 assets"))
        #expect(FileManager.default.fileExists(atPath: "\(workspace.root)/out/manifest.json"))
    }

    @Test("run: a bad pipeline file exits 2 with file, line and key")
    func badPipelineExitsTwo() throws {
        let workspace = try Workspace()
        try workspace.write(Array("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  resize:\n".utf8), as: "p.yml")
        let result = try TesseraProcess.run(["run", "\(workspace.input)/p.yml", "--input", workspace.input,
                                             "--output", "\(workspace.root)/out"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: \(workspace.input)/p.yml:6:3: pipeline: 'stages.resize': unknown key"))
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/out"))
    }

    @Test("run: bad option values are usage errors")
    func badOptions() throws {
        let result = try TesseraProcess.run(["run", pipeline, "--input", "x", "--output", "y", "--memory-budget", "lots"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("memory-budget"))
        let jobs = try TesseraProcess.run(["run", pipeline, "--input", "x", "--output", "y", "--jobs", "0"])
        #expect(jobs.status == 64)
    }

    @Test("run --progress json: one JSON object per event on stderr")
    func jsonProgress() throws {
        let workspace = try Workspace()
        try workspace.add("still/pillow/jpeg/hopper.jpg", as: "hopper@3x.jpg")
        let result = try TesseraProcess.run(["run", pipeline, "--input", workspace.input,
                                             "--output", "\(workspace.root)/out", "--progress", "json"])
        #expect(result.status == 0)
        let events = result.stderr.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        #expect(events.count == result.stderr.split(separator: "\n").count)
        #expect(events.filter { $0["event"] as? String == "started" }.count == 10)  // decode, copy, one downscale pass, 2 × (encode, write), manifest, slice, pack
        #expect(events.filter { $0["event"] as? String == "finished" }.count == 10)
        #expect(events.last?["done"] as? Int == 10 && events.last?["total"] as? Int == 10)
    }

    @Test("run: Ctrl-C stops the run, exits 130 and leaves only complete files")
    func interruptLeavesNoPartialFiles() throws {
        let workspace = try Workspace()
        // Enough work that the run is still going when the signal arrives.
        let master = try Generated.bigGradientPNG()
        for index in 0..<12 { try workspace.write(master, as: "big\(index)@3x.png") }
        let output = "\(workspace.root)/out"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TesseraProcess.executable)
        process.arguments = ["run", pipeline, "--input", workspace.input, "--output", output, "--progress", "json",
                             "--jobs", "1"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        // Wait for the first finished job, then interrupt.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("\"finished\"") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        kill(process.processIdentifier, SIGINT)
        _ = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        let written = workspace.files(under: output)
        #expect(!written.keys.contains { $0.contains(AtomicFile.temporaryPrefix) })
        #expect(written["manifest.json"] == nil)
        #expect(written.count < 36)
        for (path, data) in written {
            let decoded = try ImageDecoders.decode(SourceBytes(bytes: Array(data), path: path))
            #expect(decoded.bitmap.width > 0, "\(path) is incomplete")
        }
    }

    @Test("version lists the system codecs")
    func version() throws {
        let result = try TesseraProcess.run(["version"])
        #expect(result.status == 0)
        for library in ["libpng 1.6", "libjpeg-turbo 2.", "libwebp 1.", "giflib 5.", "liblzma 5."] {
            #expect(result.stdout.contains(library), "\(library) missing from \(result.stdout)")
        }
    }
}

enum Generated {
    /// A 1500×1500 RGB gradient PNG: big enough to take a noticeable time to downscale.
    static func bigGradientPNG() throws -> [UInt8] {
        let size = 1500
        var pixels = [UInt8](repeating: 255, count: size * size * 4)
        for y in 0..<size {
            for x in 0..<size {
                let index = (y * size + x) * 4
                pixels[index] = UInt8(x % 256)
                pixels[index + 1] = UInt8(y % 256)
                pixels[index + 2] = UInt8((x ^ y) % 256)
            }
        }
        let bitmap = try Bitmap(width: size, height: size, format: .rgba8, alpha: .opaque, pixels: pixels)
        return try PNGEncoder(compressionLevel: 1).encode(bitmap, iccProfile: nil)
    }
}
