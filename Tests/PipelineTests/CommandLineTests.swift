import Decoding
import Encoding
import Foundation
import Pipeline
import TestSupport
import Testing
import TesseraCore
import TestServers

@Suite("Command line", .serialized)
struct CommandLineTests {
    let pipeline = "\(Workspace.packageRoot)/Pipelines/samples.yml"

    @Test("run: a broken image exits 1 and names the file, the stage and the reason")
    func brokenInputExitsOne() async throws {
        let workspace = try Workspace()
        try layOutMixedInput(in: workspace)
        let result = try await TesseraProcess.run(["run", pipeline, "--input", workspace.input,
                                             "--output", "\(workspace.root)/out", "--progress", "plain"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: \(workspace.input)/broken/cut@3x.png: decode: PNG: "))
        #expect(result.stdout.contains("Built 6 of 9 variants of 2 assets"))
        #expect(FileManager.default.fileExists(atPath: "\(workspace.root)/out/manifest.json"))
    }

    @Test("run NAME uses the built-in pipeline from any folder and builds what the file builds; init writes it to edit, never over a file")
    func builtInPipelines() async throws {
        let workspace = try Workspace()
        try layOutMixedInput(in: workspace)
        try FileManager.default.removeItem(atPath: "\(workspace.input)/broken")
        let shipped = "\(Workspace.packageRoot)/Pipelines/app-thinning.yml"
        let byName = try await TesseraProcess.run(["run", "app-thinning", "--input", workspace.input, "--output", "\(workspace.root)/a", "--no-cache"])
        let byFile = try await TesseraProcess.run(["run", shipped, "--input", workspace.input, "--output", "\(workspace.root)/b", "--no-cache"])
        #expect(byName.status == 0 && byFile.status == 0)
        let manifest = { (folder: String) in FileManager.default.contents(atPath: "\(workspace.root)/\(folder)/manifest.json") }
        #expect(manifest("a") != nil && manifest("a") == manifest("b"))

        let unknown = try await TesseraProcess.run(["run", "app-thining", "--input", workspace.input, "--output", "\(workspace.root)/c"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("app-thining: pipeline: no such pipeline file, and no built-in pipeline of that name (built in: app-thinning, android"))

        let copy = "\(workspace.root)/mine.yml"
        let written = try await TesseraProcess.run(["init", "-o", copy])
        #expect(written.status == 0 && written.stdout.contains("tessera run \(copy) --input"))
        #expect(FileManager.default.contents(atPath: copy) == FileManager.default.contents(atPath: shipped))
        let again = try await TesseraProcess.run(["init", "android", "-o", copy])
        #expect(again.status == 2 && again.stderr.contains("\(copy): already exists; pass --force"))
        #expect(FileManager.default.contents(atPath: copy) == FileManager.default.contents(atPath: shipped))
        #expect(try await TesseraProcess.run(["init", "android", "-o", copy, "--force"]).status == 0)
        #expect(FileManager.default.contents(atPath: copy)
                == FileManager.default.contents(atPath: "\(Workspace.packageRoot)/Pipelines/android.yml"))
        let nope = try await TesseraProcess.run(["init", "nope"])
        #expect(nope.status == 64 && nope.stderr.contains("no built-in pipeline 'nope' (built in: app-thinning, android)"))
    }

    @Test("run: a bad pipeline file exits 2 with file, line and key")
    func badPipelineExitsTwo() async throws {
        let workspace = try Workspace()
        try workspace.write(Array("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  resize:\n".utf8), as: "p.yml")
        let result = try await TesseraProcess.run(["run", "\(workspace.input)/p.yml", "--input", workspace.input,
                                             "--output", "\(workspace.root)/out"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: \(workspace.input)/p.yml:6:3: pipeline: 'stages.resize': unknown key"))
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/out"))
    }

    @Test("run: bad option values are usage errors")
    func badOptions() async throws {
        let result = try await TesseraProcess.run(["run", pipeline, "--input", "x", "--output", "y", "--memory-limit", "lots"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("memory-limit"))
        let jobs = try await TesseraProcess.run(["run", pipeline, "--input", "x", "--output", "y", "--jobs", "0"])
        #expect(jobs.status == 64)
    }

    @Test("run: a missing input folder or an output path that is a file exits 2, naming it, before any work")
    func badFoldersExitTwo() async throws {
        let workspace = try Workspace()
        let missing = "\(workspace.root)/no-such-folder"
        let noInput = try await TesseraProcess.run(["run", pipeline, "--input", missing, "--output", "\(workspace.root)/out"])
        #expect(noInput.status == 2)
        #expect(noInput.stderr.contains("error: \(missing): the input folder does not exist or is not a folder"))
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/out"))
        try workspace.write([1, 2, 3], as: "a.png")
        let file = "\(workspace.input)/a.png"
        let fileOutput = try await TesseraProcess.run(["run", pipeline, "--input", workspace.input, "--output", file])
        #expect(fileOutput.status == 2)
        #expect(fileOutput.stderr.contains("error: \(file): the output path is a file, not a folder"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data([1, 2, 3]))
    }

    @Test("an unknown subcommand exits 64 and suggests the closest")
    func unknownSubcommandSuggests() async throws {
        let result = try await TesseraProcess.run(["runn", pipeline])
        #expect(result.status == 64)
        #expect(result.stderr.contains("error: unknown command 'runn'; did you mean 'run'?"))
        #expect(try await TesseraProcess.run(["timng"]).stderr.contains("did you mean 'timing'?"))
        #expect(try await TesseraProcess.run(["help", "run"]).status == 0)
    }

    @Test("run and merge share one declaration of how a build runs: the same --jobs, --memory-limit, --progress, --fail-fast and --verbose, word for word")
    func runAndMergeShareBuildOptions() async throws {
        func lines(_ help: String, _ option: String) -> [String] {
            // An option's help is its line and the indented lines after it, up to the next option.
            var found: [String] = [], inside = false
            for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("-") { inside = trimmed.hasPrefix(option) || trimmed.contains(", \(option)") }
                if inside { found.append(trimmed) }
            }
            return found
        }
        let run = try await TesseraProcess.run(["run", "--help"]).stdout, merge = try await TesseraProcess.run(["merge", "--help"]).stdout
        for option in ["--jobs", "--memory-limit", "--progress", "--fail-fast", "--verbose"] {
            #expect(!lines(merge, option).isEmpty, "merge has no \(option)")
            #expect(lines(run, option) == lines(merge, option), "\(option) differs")
        }
        let bad = try await TesseraProcess.run(["merge", "x.json", "--output", "o", "--memory-limit", "0"])
        #expect(bad.status == 64 && bad.stderr.contains("--memory-limit must be more than 0"))
    }

    @Test("run --help gives each option one default")
    func helpHasOneDefaultPerOption() async throws {
        let help = try await TesseraProcess.run(["run", "--help"]).stdout
        // Each option's block: from a line starting with "  -" to the next.
        var blocks: [String] = []
        for line in help.split(separator: "\n") {
            if line.hasPrefix("  -") { blocks.append("") }
            if !blocks.isEmpty { blocks[blocks.count - 1] += line.trimmingCharacters(in: .whitespaces) + " " }
        }
        #expect(blocks.count >= 6)
        for block in blocks {
            #expect(block.components(separatedBy: "default").count <= 2, "\(block)")
        }
        #expect(blocks.contains { $0.contains("(default: the number of cores).") })
    }

    @Test("timing: min:N beyond one hour and --max-slots beyond the limit are usage errors, not a crash or a hang")
    func timingBounds() async throws {
        let workspace = try Workspace()
        let gif = try zeroDelayGIF(in: workspace, frames: 5)
        for clamp in ["min:1000000000000", "min:9223372036854775807", "min:3600001"] {
            let result = try await TesseraProcess.run(["timing", "--clamp", clamp, gif])
            #expect(result.status == 64, "\(clamp)")
            #expect(result.stderr.contains("N from 0 to 3600000 ms"), "\(clamp): \(result.stderr)")
        }
        let hour = try await TesseraProcess.run(["timing", "--clamp", "min:3600000", gif])
        #expect(hour.status == 0 && hour.stdout.contains("tick 3600000 ms, total 18000000 ms, 5 slots"))
        #expect(try await TesseraProcess.run(["timing", "--max-slots", "1000000000000", gif]).status == 64)
    }

    @Test("timing: --max-slots holds when every delay is 0")
    func timingMaxSlotsForZeroDelays() async throws {
        let workspace = try Workspace()
        let gif = try zeroDelayGIF(in: workspace, frames: 6)
        let result = try await TesseraProcess.run(["timing", "--clamp", "none", "--max-slots", "2", "--json", gif])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let reports = try #require(object["files"] as? [[String: Any]])
        #expect(reports.first?["sequence"] as? [Int] == [0, 3])
        #expect(reports.first?["droppedFrames"] as? Int == 4)
    }

    @Test("timing --sub-images: merge (default) draws a zero-delay image with the next; separate keeps it")
    func timingSubImages() async throws {
        let workspace = try Workspace()
        // Frames of 0, 500, 0, 500 ms: two frames of 500 ms when merged, four when separate.
        let gif = try zeroDelayGIF(in: workspace, frames: 4, delaysMs: [0, 500, 0, 500])
        let merged = try await TesseraProcess.run(["timing", gif])
        #expect(merged.status == 0 && merged.stdout.contains("2 frames, tick 500 ms, total 1000 ms"))
        #expect(merged.stdout.contains("500ms×1 (2 images) 500ms×1 (2 images)"))
        let separate = try await TesseraProcess.run(["timing", "--sub-images", "separate", gif])
        #expect(separate.stdout.contains("4 frames, tick 100 ms, total 1200 ms"))
        #expect(try await TesseraProcess.run(["timing", "--sub-images", "layers", gif]).status == 64)
    }

    /// An animated GIF of 1×1 frames in different colours, each with the given delay (0 by default).
    private func zeroDelayGIF(in workspace: Workspace, frames: Int, delaysMs: [Int]? = nil) throws -> String {
        let encoder = try AnimatedGIFEncoder(width: 1, height: 1, plays: .forever)
        for index in 0..<frames {
            let pixel: [UInt8] = [UInt8(index * 40), 0, 255 - UInt8(index * 40), 255]
            try encoder.add(try Bitmap(width: 1, height: 1, format: .rgba8, alpha: .straight, pixels: pixel),
                            durationMs: delaysMs?[index] ?? 0)
        }
        try workspace.write(try encoder.finish(), as: "anim.gif")
        return "\(workspace.input)/anim.gif"
    }

    @Test("run --progress json: one JSON object per event on stderr")
    func jsonProgress() async throws {
        let workspace = try Workspace()
        try workspace.add("still/pillow/jpeg/hopper.jpg", as: "hopper@3x.jpg")
        let result = try await TesseraProcess.run(["run", pipeline, "--input", workspace.input,
                                             "--output", "\(workspace.root)/out", "--progress", "json"])
        #expect(result.status == 0)
        let events = result.stderr.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        #expect(events.count == result.stderr.split(separator: "\n").count)
        // one downscale pass (which also validates the 3x copied, and encodes the 2x and 1x), copy,
        // 2 writes, manifest, slice, the untagged set's copy into app/ (it stays in the app: no
        // bundle), publish
        #expect(events.filter { $0["event"] as? String == "started" }.count == 8)
        #expect(events.filter { $0["event"] as? String == "finished" }.count == 8)
        #expect(!events.contains { $0["stage"] as? String == "encode" })
        #expect(!events.contains { $0["stage"] as? String == "decode" })
        #expect(events.filter { $0["event"] as? String == "finished" && $0["stage"] as? String == "app" }.count == 1)
        #expect(!events.contains { $0["stage"] as? String == "bundle" })
        #expect(events.last?["done"] as? Int == 8 && events.last?["total"] as? Int == 8)
    }

    @Test("run --progress json: warnings and failures are JSON events too; stderr stays JSON Lines")
    func jsonProgressProblems() async throws {
        let workspace = try Workspace()
        try layOutMixedInput(in: workspace)  // a truncated PNG fails; a 2x-only master warns about 3x
        let result = try await TesseraProcess.run(["run", pipeline, "--input", workspace.input,
                                             "--output", "\(workspace.root)/out", "--progress", "json"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.count == lines.count, "every stderr line is JSON")
        let errors = events.filter { $0["event"] as? String == "error" }
        #expect(errors.contains { ($0["file"] as? String)?.hasSuffix("broken/cut@3x.png") == true && $0["stage"] as? String == "decode" })
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
        let (environment, cache) = TesseraProcess.isolatedEnvironment()
        process.environment = environment
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        // Wait for the first written variant file, then interrupt.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).split(separator: "\n").contains(where: { $0.contains("\"finished\"") && $0.contains("\"stage\":\"write\"") }) {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        kill(process.processIdentifier, SIGINT)
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        let written = workspace.files(under: output)
        // The count it gives is the complete variant files it left.
        let complete = written.keys.filter { $0.hasPrefix("variants/") }.count
        #expect(complete > 0 && said.contains("interrupted: \(complete) variant files were complete"), "\(complete): \(said.suffix(300))")
        #expect(!written.keys.contains { $0.contains(AtomicFile.temporaryPrefix) })
        #expect(written["manifest.json"] == nil)
        #expect(written.count < 36)
        for (path, data) in written {
            let decoded = try ImageDecoders.decode(SourceBytes(bytes: Array(data), path: path))
            #expect(decoded.bitmap.width > 0, "\(path) is incomplete")
        }
    }

    @Test("version lists the system codecs")
    func version() async throws {
        let result = try await TesseraProcess.run(["version"])
        #expect(result.status == 0)
        #if FastInflate
        let inflater = "ISA-L 2."
        #else
        let inflater = "zlib 1."
        #endif
        for library in ["libpng 1.6", "libjpeg-turbo 2.", "libwebp 1.", "giflib 5.", "liblzma 5.", "libdeflate 1.", inflater] {
            #expect(result.stdout.contains(library), "\(library) missing from \(result.stdout)")
        }
    }

    @Test("version is the changelog's newest version; a build not made by scripts/dist.sh says it records no commit")
    func versionMatchesTheChangelog() async throws {
        let changelog = try String(contentsOfFile: "\(Workspace.packageRoot)/CHANGELOG.md", encoding: .utf8)
        let heading = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        let newest = try #require(heading.dropFirst(3).split(separator: " ").first.map(String.init))
        let firstLine = try await TesseraProcess.run(["version"]).stdout.split(separator: "\n").first.map(String.init)
        #expect(firstLine == "tessera \(newest) (development build: no commit recorded)")
        #expect(try await TesseraProcess.run(["--version"]).stdout == "\(newest) (development build: no commit recorded)\n")
    }
    @Test("warnings of one kind are one line with a count and the first files; --verbose lists each; errors are always each named")
    func warningsAreSummarisedByKind() async throws {
        let workspace = try Workspace()
        // Five plain-folder assets with only a 2x: five warnings of one kind; one broken file.
        for index in 0..<5 { try workspace.add("png/pngsuite/basn2c08.png", as: "icons/i\(index)@2x.png") }
        try workspace.add("still/pillow/broken/truncated_image.png", as: "broken/cut@3x.png")
        let run = { (extra: [String]) in
            try await TesseraProcess.run(["run", pipeline, "--input", workspace.input, "--output", "\(workspace.root)/out-\(extra.count)",
                                    "--progress", "quiet"] + extra)
        }
        let summary = try await run([])
        #expect(summary.status == 1)
        let lines = summary.stderr.split(separator: "\n").map(String.init)
        // Quiet: no per-job lines; the summary and the problems only.
        #expect(!lines.contains { $0.hasPrefix("[") }, "\(lines)")
        let grouped = lines.filter { $0.contains("no 3x variant") }
        #expect(grouped.count == 1 && grouped[0].contains("5 files: ") && grouped[0].contains("--verbose lists all"), "\(grouped)")
        #expect(lines.filter { $0.hasPrefix("error: ") && $0.contains("broken/cut@3x.png") }.count == 1)
        let verbose = try await run(["--verbose"])
        #expect(verbose.stderr.split(separator: "\n").filter { $0.contains("no 3x variant") }.count == 5)
    }

    @Test("GitHub Actions gets ::error and ::warning commands (file relative to the workspace, escaped); GitLab a Code Quality report")
    func ciAnnotations() async throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "icons/only@2x.png")
        try workspace.add("still/pillow/broken/truncated_image.png", as: "broken/cut@3x.png")
        let github = try await TesseraProcess.run(["run", pipeline, "--input", workspace.input, "--output", "\(workspace.root)/gh", "--progress", "quiet"],
                                            environment: ["GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace.root])
        let commands = github.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(commands.contains { $0.hasPrefix("::error file=input/broken/cut@3x.png,title=Tessera decode::") }, "\(commands)")
        #expect(commands.contains { $0.hasPrefix("::warning file=input/icons/only@2x.png,title=Tessera plan::no 3x variant") }, "\(commands)")
        let gitlab = try await TesseraProcess.run(["run", pipeline, "--input", workspace.input, "--output", "\(workspace.root)/gl", "--progress", "quiet"],
                                            environment: ["GITLAB_CI": "true", "CI_PROJECT_DIR": workspace.root])
        #expect(gitlab.status == 1)
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/gl/gl-code-quality-report.json"))
        let issues = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let error = try #require(issues.first { $0["severity"] as? String == "major" })
        #expect((error["location"] as? [String: Any])?["path"] as? String == "input/broken/cut@3x.png")
        #expect(error["check_name"] as? String == "tessera-decode" && (error["fingerprint"] as? String)?.count == 64)
    }

    @Test("a token file of raw bytes (not a bearer token) is refused by serve and publish, never decoded lossily into a token other bytes would match")
    func rawByteTokenIsRefused() async throws {
        let workspace = try Workspace()
        try workspace.write([0xFF, 0xFE, 0x80, 0x41, 0xC3, 0x28, 0x0A], as: "token")
        let publish = try await TesseraProcess.run(["publish", workspace.input, "--server", "http://127.0.0.1:1", "--token-file", "\(workspace.input)/token"])
        #expect(publish.status == 2 && publish.stderr.contains("is not a bearer token (RFC 6750"), "\(publish.stderr)")
        let serve = try await TesseraProcess.run(["serve", "--database", "sqlite:\(workspace.root)/c.sqlite", "--store", "\(workspace.root)/store",
                                            "--port", "1", "--token-file", "\(workspace.input)/token"])
        #expect(serve.status == 2 && serve.stderr.contains("is not a bearer token"), "\(serve.stderr)")
        try workspace.write(Array("good-Token_1.2~3+4/5==\n".utf8), as: "good")
        #expect(!(try await TesseraProcess.run(["publish", workspace.input, "--server", "http://127.0.0.1:1", "--token-file", "\(workspace.input)/good"]).stderr.contains("bearer token")))
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

@Suite("Leftovers of a killed run")
struct LeftoverTests {
    @Test("the sweep removes AtomicFileWriter's temporary files at any depth and nothing else")
    func sweepRemovesOnlyItsOwnNaming() throws {
        let workspace = try Workspace()
        let output = "\(workspace.root)/out"
        // A writer that has not committed stands for one whose process was killed with -9.
        let killed = try AtomicFileWriter(path: "\(output)/bundles/iPhone15,2.tsb")
        try killed.append([1, 2, 3])
        let deep = try AtomicFileWriter(path: "\(output)/variants/a/b/icon@2x.png")
        try deep.append([4])
        let keep = ["\(output)/bundles/.tessera-tmp-notes", "\(output)/variants/tessera-tmp-x.png.abcdef",
                    "\(output)/variants/.tessera-tmp-x.png.abc", "\(output)/manifest.json"]
        for path in keep { try Data([9]).write(to: URL(fileURLWithPath: path)) }
        let outside = "\(workspace.root)/.tessera-tmp-outside.png.Zz0099"
        try Data([9]).write(to: URL(fileURLWithPath: outside))
        try FileManager.default.createSymbolicLink(atPath: "\(output)/link", withDestinationPath: workspace.root)

        let removed = RunFolders.removeLeftovers(output: output)
        #expect(removed.count == 2)
        #expect(removed.allSatisfy { $0.contains("/.tessera-tmp-iPhone15,2.tsb.") || $0.contains("/a/b/.tessera-tmp-icon@2x.png.") })
        #expect(keep.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        #expect(FileManager.default.fileExists(atPath: outside))
        #expect(RunFolders.removeLeftovers(output: output).isEmpty)
        #expect(RunFolders.removeLeftovers(output: "\(workspace.root)/none").isEmpty)
        killed.discard()
        deep.discard()
    }

}
