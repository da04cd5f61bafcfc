import Decoding
import Foundation
import Pipeline
import TesseraCore

/// A temporary folder for one test, with helpers to lay out inputs from the corpus.
final class Workspace {
    let root: String

    static let corpus: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/corpus").path

    static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var input: String { "\(root)/input" }

    /// Copies a corpus file to `input/<name>`.
    func add(_ corpusPath: String, as name: String) throws {
        let target = "\(input)/\(name)"
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(Self.corpus)/\(corpusPath)", toPath: target)
    }

    /// Writes bytes to `input/<name>`.
    func write(_ bytes: [UInt8], as name: String) throws {
        let target = "\(input)/\(name)"
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: target, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Every file under `folder` as `files(under:)` gives them, with the one part of a build that
    /// may differ between identical runs, `report.json`'s timings, set to zero.
    func reproducibleFiles(under folder: String) throws -> [String: Data] {
        var files = self.files(under: folder)
        if let data = files["report.json"] {
            var report = try JSONDecoder().decode(BuildReport.self, from: data)
            report.stages = [:]
            report.wallSeconds = 0
            files["report.json"] = Data(try StableJSON.encode(report))
        }
        return files
    }

    /// Every file under `folder`, relative, sorted, with their bytes.
    func files(under folder: String) -> [String: Data] {
        var result: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [:] }
        while let next = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: "\(folder)/\(next)", isDirectory: &isFolder)
            if !isFolder.boolValue { result[next] = FileManager.default.contents(atPath: "\(folder)/\(next)") }
        }
        return result
    }
}

/// The standard sample layout used by several tests: two good assets and one broken one.
func layOutMixedInput(in workspace: Workspace) throws {
    try workspace.add("png/pngsuite/basn6a08.png", as: "icons/alpha@3x.png")       // 32×32 RGBA
    try workspace.add("png/pngsuite/basn2c08.png", as: "icons/alpha@2x.png")       // provided 2x
    try workspace.add("still/pillow/jpeg/hopper.jpg", as: "photos/hopper@3x.jpg")  // 128×128
    try workspace.add("still/pillow/broken/truncated_image.png", as: "broken/cut@3x.png")
}
