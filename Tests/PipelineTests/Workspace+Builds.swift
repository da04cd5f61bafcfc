import Foundation
import Pipeline
import TestSupport
import TesseraCore

extension Workspace {
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
}

/// The standard sample layout used by several tests: two good assets and one broken one.
func layOutMixedInput(in workspace: Workspace) throws {
    try workspace.add("png/pngsuite/basn6a08.png", as: "icons/alpha@3x.png")       // 32×32 RGBA
    try workspace.add("png/pngsuite/basn2c08.png", as: "icons/alpha@2x.png")       // provided 2x
    try workspace.add("still/pillow/jpeg/hopper.jpg", as: "photos/hopper@3x.jpg")  // 128×128
    try workspace.add("still/pillow/broken/truncated_image.png", as: "broken/cut@3x.png")
}
