import BuildCache
import Foundation
import Pipeline
import Testing
import TesseraCore
import TestSupport

/// A build's durability costs only its own writes (issue 56): what it flushes is the files it
/// wrote or restored and their folders, never a file of the checkout around it.
@Suite("Durable builds")
struct DurableBuildTests {
    @Test("a cold and a restoring build flush exactly the files they placed and their folders, not the checkout's files")
    func buildsFlushTheirOwnFiles() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        try workspace.ageSources()
        // A file Tessera did not write, freshly written (dirty) beside the output: never flushed.
        #expect(FileManager.default.createFile(atPath: "\(workspace.root)/cloned-by-git.txt", contents: Data("checkout".utf8)))
        for name in ["cold", "warm"] {
            let out = "\(workspace.root)/\(name)"
            let record = FlushRecord()
            DurableWrites.use(record.flusher, under: out)
            defer { DurableWrites.use(nil, under: out) }
            let outcome = try await workspace.build(into: out, cache: try workspace.openCache())
            #expect(outcome.exitStatus == 0)
            let flushed = Set(record.files.withLock { $0 })
            #expect(flushed.count == record.files.withLock { $0 }.count, "a file flushed twice in \(name)")
            // The cold build places variants, objects and app files unflushed and fsyncs the few
            // others (bundles, manifests, slices) as it writes them; the warm build restores every
            // file but those the after-build steps write (each fsynced). The flush is those files.
            let outputs = Set(workspace.outputs(out).keys)
            let placed = name == "cold"
                ? outputs.filter { $0.hasPrefix("variants/") || $0.hasPrefix("objects/") || $0.hasPrefix("app/") }
                : outputs.subtracting(["updates.json", "manifest.json.xz"])
            let written = Set(placed.map { "\(out)/\($0)" })
            #expect(written.count > 5)
            #expect(flushed == written, "\(name): not flushed \(written.subtracting(flushed).sorted()), flushed besides \(flushed.subtracting(written).sorted())")
            #expect(!flushed.contains { $0.hasPrefix("\(workspace.root)/input/") || $0.hasSuffix("cloned-by-git.txt") })
            // Folders: those holding a flushed file, the output folder and the folder above it
            // (the build made the output folder there), and any other folder of the output's that
            // received a folder the build made; each once, none from elsewhere.
            let folders = record.folders.withLock { $0 }
            let holding = Set(flushed.map { ($0 as NSString).deletingLastPathComponent })
            let outputFolders = Set(try FileManager.default.subpathsOfDirectory(atPath: out)
                .filter { path in
                    var isFolder: ObjCBool = false
                    return FileManager.default.fileExists(atPath: "\(out)/\(path)", isDirectory: &isFolder) && isFolder.boolValue
                }
                .map { "\(out)/\($0)" })
            #expect(Set(folders).isSuperset(of: holding.union([out, workspace.root])), "\(name): \(folders)")
            #expect(Set(folders).isSubset(of: outputFolders.union([out, workspace.root])), "\(name): \(folders)")
            #expect(Set(folders).count == folders.count)
            #expect(folders.last == workspace.root)
        }
    }
}
