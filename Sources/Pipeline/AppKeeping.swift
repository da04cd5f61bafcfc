import Foundation
import Packing
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
    /// The kept assets the OS does not read itself (kept by `pack.untagged: app` or `keep-in-app`),
    /// by `Self.key`: the image sets among them are written for Xcode, not copied (`AppCatalogStage`).
    private let keptByThePipeline: Set<String>

    init(assets: [CatalogAsset], definition: PipelineDefinition, inputFolder: String) {
        let membership = TargetMembership(targets: definition.targets, sharedDevices: [])
        // Without a pack stage nothing is downloaded, so nothing needs keeping back.
        let untaggedStayInApp = definition.pack?.untagged == .app
        var shipped: [CatalogAsset] = [], problems: [BuildProblem] = [], reasons: [String: String] = [:]
        var keptByThePipeline: Set<String> = []
        for asset in assets {
            let decision = AppPlacement.decide(asset, settings: membership.settings(for: asset, default: definition.app),
                                               untaggedStayInApp: untaggedStayInApp)
            if let warning = decision.warning {
                problems.append(BuildProblem(severity: .warning, file: "\(inputFolder)/\(AssetNameCollisions.origin(of: asset))",
                                             stage: ProblemOrigin.app, reason: "'\(asset.name.name)' is \(warning)"))
            }
            switch decision.placement {
            case .pack:
                shipped.append(asset)
            case .app(let reason):
                shipped.append(asset)
                reasons[Self.key(asset)] = reason
                if !decision.readByTheSystem { keptByThePipeline.insert(Self.key(asset)) }
            case .nowhere(let reason):
                problems.append(BuildProblem(severity: .warning, file: "\(inputFolder)/\(AssetNameCollisions.origin(of: asset))",
                                             stage: ProblemOrigin.app, reason: reason))
            }
        }
        self.shipped = shipped
        self.problems = problems
        self.reasons = reasons
        self.keptByThePipeline = keptByThePipeline
    }

    /// Folders of a layered icon (visionOS and tvOS image stacks, tvOS brand assets), compiled whole.
    static let layeredIcons = [".solidimagestack", ".imagestack", ".brandassets"]

    /// Whether `asset` goes to the app as an image set Tessera writes for Xcode: a catalog image
    /// set the pipeline keeps (not one the OS reads, which goes exactly as written), whose every
    /// entry names its scale, with no vector it must preserve and outside layered icons.
    func rewritesAsCatalog(_ asset: CatalogAsset) -> Bool {
        guard keptByThePipeline.contains(Self.key(asset)), asset.kind == .image, asset.catalog != nil,
              let folder = Self.setFolder(of: asset), !asset.isSingleScale, !asset.preservesVectorRepresentation,
              asset.entries.allSatisfy({ $0.traits.scale != nil }) else { return false }
        let held = Self.layeredIcons + [".complicationset"]
        return !folder.split(separator: "/").contains { part in held.contains { part.hasSuffix($0) } }
    }

    /// The `.imageset` folder holding every file of `asset`, relative to the input folder; nil when
    /// its files are not all in one such folder.
    static func setFolder(of asset: CatalogAsset) -> String? {
        guard let first = asset.entries.first?.file else { return nil }
        let folder = (first as NSString).deletingLastPathComponent
        guard folder.hasSuffix(".imageset"),
              asset.entries.allSatisfy({ ($0.file as NSString).deletingLastPathComponent == folder }) else { return nil }
        return folder
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
            if let stack = parts.firstIndex(where: { part in Self.layeredIcons.contains { part.hasSuffix($0) } }) {
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
