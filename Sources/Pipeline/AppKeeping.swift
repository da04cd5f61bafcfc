import Foundation
import Slicing
import TesseraCore

/// What the app target keeps of a build's assets (`AppPlacement`): the sets Xcode or Gradle must
/// compile into the app itself, copied under `app/` at their paths in the input, and the app icon
/// sets nothing ships (each named in a warning, then left out of the build).
struct AppKeeping: Sendable {
    /// The assets that ship somewhere, in reading order.
    let shipped: [CatalogAsset]
    let problems: [BuildProblem]
    /// Why each kept asset stays in the app, by `Self.key`.
    private let reasons: [String: String]

    init(assets: [CatalogAsset], definition: PipelineDefinition, inputFolder: String) {
        let membership = TargetMembership(targets: definition.targets, sharedDevices: [])
        var shipped: [CatalogAsset] = [], problems: [BuildProblem] = [], reasons: [String: String] = [:]
        for asset in assets {
            switch AppPlacement.of(asset, settings: membership.settings(for: asset, default: definition.app)) {
            case .pack:
                shipped.append(asset)
            case .app(let reason):
                shipped.append(asset)
                reasons[Self.key(asset)] = reason
            case .nowhere(let reason):
                problems.append(BuildProblem(severity: .warning, file: "\(inputFolder)/\(AssetNameCollisions.origin(of: asset))",
                                             stage: ProblemOrigin.app, reason: reason))
            }
        }
        self.shipped = shipped
        self.problems = problems
        self.reasons = reasons
    }

    /// Why `asset` stays in the app; nil when it ships in packs.
    func reason(for asset: CatalogAsset) -> String? { reasons[Self.key(asset)] }

    /// Whether any asset stays in the app.
    var keepsAnything: Bool { !reasons.isEmpty }

    /// The files the app build needs for `asset`, relative to the input folder: its own files and
    /// set description, and in a catalog every `Contents.json` from the catalog down to its set
    /// (groups carry namespaces and tags), so `app/` holds catalogs Xcode compiles as they are.
    static func files(of asset: CatalogAsset, inputFolder: String) -> [String] {
        var files = Set(asset.entries.map(\.file))
        if let contents = asset.contentsFile { files.insert(contents) }
        if let catalog = asset.catalog, let first = asset.entries.first?.file ?? asset.contentsFile {
            // Up to the catalog's own Contents.json; an input that is the catalog has it at its top.
            var folder = (first as NSString).deletingLastPathComponent
            while folder.hasPrefix(catalog) {
                let contents = folder.isEmpty ? "Contents.json" : "\(folder)/Contents.json"
                if FileManager.default.fileExists(atPath: "\(inputFolder)/\(contents)") { files.insert(contents) }
                if folder == catalog || folder.isEmpty { break }
                folder = (folder as NSString).deletingLastPathComponent
            }
            // A layered icon (an image stack, tvOS brand assets) is compiled whole: every layer's
            // description goes, an empty layer's too, or Xcode finds a layer it lists missing.
            let parts = first.split(separator: "/", omittingEmptySubsequences: false)
            let layered = [".solidimagestack", ".imagestack", ".brandassets"]
            if let stack = parts.firstIndex(where: { part in layered.contains { part.hasSuffix($0) } }) {
                let stackFolder = parts[...stack].joined(separator: "/")
                for name in FileManager.default.enumerator(atPath: "\(inputFolder)/\(stackFolder)")?.allObjects as? [String] ?? []
                where (name as NSString).lastPathComponent == "Contents.json" {
                    files.insert("\(stackFolder)/\(name)")
                }
                files.insert("\(stackFolder)/Contents.json")
                files = files.filter { !$0.hasSuffix("/Contents.json") || FileManager.default.fileExists(atPath: "\(inputFolder)/\($0)") }
            }
        }
        return files.sorted()
    }

    private static func key(_ asset: CatalogAsset) -> String { "\(asset.kind.rawValue)\u{0}\(asset.name.name)" }
}
