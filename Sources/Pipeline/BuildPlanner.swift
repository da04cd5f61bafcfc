import Decoding
import Delivery
import Dispatch
import Foundation
import JobEngine
import Rasterizing
import Slicing
import Synchronization
import TesseraCore

/// Turns a pipeline definition and an input folder into the job graph that builds every variant.
///
/// Per asset: decode each source once; for each requested scale either copy the provided file
/// (after its decode shows it is valid) or downscale the largest master, encode and write; then
/// one manifest job gathers every written variant.
struct BuildPlanner {
    let definition: PipelineDefinition
    let inputFolder: String
    let outputFolder: String
    /// Where sources' hashes come from: a fingerprint index spares re-reading unchanged files.
    var hashing: any FileHashing = DirectFileHashing()
    /// The manifests of earlier builds the manifest lists (`--against`); nil for none.
    var predecessors: [ManifestReference]? = nil

    struct Plan {
        var graph: JobGraph
        /// The job that writes the manifests, whose result is what the build made.
        var manifest: JobRef<WrittenManifests>
        /// Problems found while planning (duplicate scales, no upscaling, unreadable files).
        var problems: [BuildProblem]
        var variantCount: Int
        /// Each asset's source files, relative to the input folder: the planner reads all of an
        /// asset's sources to plan any of its variants, so they travel together (`RemoteWorkOrder`).
        var sourceGroups: [[String]] = []

        /// The graph, leaving an empty one: what the scheduler is handed, so that it holds the
        /// only copy and can let go of each job's work as the job ends.
        mutating func takeGraph() -> JobGraph {
            sourceGroups = []
            let taken = graph
            graph = JobGraph()
            return taken
        }
    }

    /// The phases in order: scan the input, add the variant chains, the carried files (data
    /// sets, what stays in the app), the manifest, the slices and packs, and last the job that
    /// publishes the manifests.
    func plan() throws(TesseraError) -> Plan {
        let scan = try self.scan()
        var problems = scan.problems
        let facts = gatherFacts(Array(Set(scan.variants.variants.map(\.source))).sorted())
        var graph = JobGraph()
        // About two jobs per variant (encode and write, or decode and copy) and one per source.
        graph.reserveCapacity(2 * scan.variants.variants.count + facts.count + 16)
        let preserved = Set(scan.sources.presentation.filter { $0.value.preservesVectorRepresentation }.keys)
        var chains = VariantChains(definition: definition, outputFolder: outputFolder, variants: scan.variants.variants,
                                   preservedVectors: preserved, sRGBOnly: scan.sources.sRGBOnly)
        for planned in scan.variants.variants {
            switch facts[planned.source] {
            case .failure(let error):
                problems.append(BuildProblem(severity: .error, file: error.file ?? planned.source.relativePath,
                                             stage: ProblemOrigin.read, reason: error.reason))
            case .success(let source):
                try chains.add(planned, source: source, to: &graph)
            case nil:
                continue
            }
        }
        var outputs = chains.outputs
        // Unreadable files are reported once, not once per variant.
        problems = Array(Set(problems)).sorted()
        let carried = addCarriedJobs(scan, outputs: &outputs, written: chains.written, to: &graph)
        let manifest = graph.add(GatherStage(pipelineName: definition.name,
                                               path: "\(outputFolder)/\(definition.manifest.file)", tags: scan.sources.tags,
                                               presentation: scan.sources.presentation, anyScale: scan.sources.anyScale)
            .job(.init(variants: chains.written.map(Upstream.init), bitmaps: chains.bitmaps.map(Upstream.init),
                       timings: chains.timings.map(Upstream.init), data: carried.data.map(Upstream.init),
                       vectors: chains.vectors.map(Upstream.init), app: carried.kept.map(Upstream.init),
                       appSets: carried.appSets.map(Upstream.init))))
        let delivery = try addDeliveryJobs(scan, outputs: outputs, manifest: manifest, to: &graph, problems: &problems)
        // The one job that writes manifest.json (and, with packs, the platform manifests), last.
        let written = graph.add(ManifestStage(outputFolder: outputFolder, manifestFile: definition.manifest.file,
                                               packing: delivery.packing?.options, predecessors: predecessors)
            .job(manifest: manifest, packs: delivery.packing))
        // Every file of every asset read (an app icon's appearances and sizes, a data set's
        // contents), with the source images the variants come from.
        var files: [String: Set<String>] = [:]
        for asset in scan.read.assets { files[asset.name.description, default: []].formUnion(asset.entries.map(\.file)) }
        for image in scan.sources.images { files[image.asset.description, default: []].insert(image.relativePath) }
        let groups = files.values.filter { !$0.isEmpty }.map { $0.sorted() }
        return Plan(graph: graph, manifest: written, problems: problems, variantCount: chains.written.count,
                    sourceGroups: groups.sorted { $0[0] < $1[0] })
    }

    /// A target's assets are made at no larger scale than its devices draw (a Mac target's
    /// universal art gets no 3x, and no warning that it has none), unless another target or the
    /// slice stage's devices also get them.
    func limitScales(of sources: inout CatalogSources.SourceSet, assets: [CatalogAsset]) throws(TesseraError) {
        // An app for no iPhone (`device-family` without iphone: a Mac, iPad or TV app) draws at
        // 2x at most: no 3x is made, and none is missed.
        if let family = definition.app.deviceFamily, !family.contains("iphone") {
            for image in sources.images { sources.scaleCeilings[image.asset] = min(sources.scaleCeilings[image.asset] ?? .x2, .x2) }
        }
        guard !definition.targets.isEmpty else { return }
        var ceilings: [String: Int] = [:]
        for target in definition.targets {
            var largest = 1
            for id in target.devices { largest = max(largest, try KnownDevices.device(id).scale) }
            ceilings[target.name] = largest
        }
        // By file, so that the slot groups made from a single-size icon are limited too.
        var byFile: [String: DisplayScale] = [:]
        for asset in assets {
            let owners = definition.targets.filter { $0.holds(asset) }
            guard !owners.isEmpty, let largest = owners.compactMap({ ceilings[$0.name] }).max(),
                  let ceiling = DisplayScale(factor: largest) else { continue }
            for entry in asset.entries { byFile[entry.file] = ceiling }
        }
        for image in sources.images {
            guard let ceiling = byFile[image.relativePath] else { continue }
            sources.scaleCeilings[image.asset] = min(sources.scaleCeilings[image.asset] ?? ceiling, ceiling)
        }
    }

    /// A target whose input holds no asset, and assets that no device will get, are named.
    func targetProblems(_ assets: [CatalogAsset], membership: TargetMembership) -> [BuildProblem] {
        guard !membership.targets.isEmpty else { return [] }
        var problems: [BuildProblem] = []
        for target in membership.targets {
            for input in target.inputs where !assets.contains(where: { PipelineTarget.asset($0, isIn: input) }) {
                problems.append(BuildProblem(severity: .warning, file: "\(inputFolder)/\(input)", stage: ProblemOrigin.slice,
                                             reason: "target '\(target.name)' holds no asset (is its input right?)"))
            }
        }
        if membership.sharedDevices.isEmpty {
            // An empty set (no file) was already named by the catalog reader; it builds nothing.
            for asset in assets where !membership.targets.contains(where: { $0.holds(asset) })
                && !(asset.entries.isEmpty && asset.contentsFile == nil) {
                let file = asset.entries.first?.file ?? asset.contentsFile ?? asset.name.name
                problems.append(BuildProblem(severity: .warning, file: "\(inputFolder)/\(file)", stage: ProblemOrigin.slice,
                                             reason: "asset '\(asset.name.name)' is in no target and the slice stage names no device: no device gets it"))
            }
        }
        return problems
    }

    /// A device the build slices for that cannot install an app (its newest OS is older than the
    /// app's deployment target) is named: it gets none of that app's assets.
    func deploymentProblems(_ devices: [DeviceClass], membership: TargetMembership) -> [BuildProblem] {
        var apps: [(name: String, file: String, settings: AppBuildSettings, devices: [String])] = []
        if membership.targets.isEmpty {
            apps.append(("the app", inputFolder, definition.app, devices.map(\.id)))
        } else {
            for target in membership.targets {
                apps.append(("target '\(target.name)'", "\(inputFolder)/\(target.inputs[0])", target.settings ?? definition.app, target.devices))
            }
            if !membership.sharedDevices.isEmpty {
                apps.append(("the assets in no target", inputFolder, definition.app, Array(membership.sharedDevices).sorted()))
            }
        }
        var problems: [BuildProblem] = []
        for app in apps {
            guard let target = app.settings.deploymentTarget else { continue }
            for device in devices where app.devices.contains(device.id) && !target.admits(device) {
                let os = DeploymentTarget.displayName(of: DeploymentTarget.key(of: device.platform) ?? device.platform.rawValue)
                problems.append(BuildProblem(severity: .warning, file: app.file, stage: ProblemOrigin.slice,
                                             reason: "\(device.id) (\(device.name)) runs \(os) \(device.newestOS.map(String.init) ?? "?") at most, older than \(app.name)'s deployment target (\(os) \(target.minimum(for: device) ?? 0)): it gets none of its assets"))
            }
        }
        return problems
    }

    static let pdfCarriedReason = "not rasterised: no PDF renderer was found (install Debian's mupdf-tools: Tessera runs `mutool` as a separate process; or build with `--traits PDFRasterizing`; docs/vectors.md); the PDF is shipped as it is"

    /// Hashes and probes every source, one file per core at a time, through `ImageSource`: PNG,
    /// JPEG and WebP are probed from the file and hashed through `hashing` (a fingerprint index
    /// spares re-reading them), so even a huge master is never held whole while planning.
    private func gatherFacts(_ sources: [SourceImage]) -> [SourceImage: Result<SourceFacts, TesseraError>] {
        let results = Mutex<[SourceImage: Result<SourceFacts, TesseraError>]>([:])
        let folder = inputFolder, subImages = definition.timing.subImages, hashing = self.hashing
        let renders = definition.rasterize == nil ? [] : RasterizeStage.renderedFormats
        DispatchQueue.concurrentPerform(iterations: sources.count) { index in
            let source = sources[index]
            let path = "\(folder)/\(source.relativePath)"
            let result = Result { () throws(TesseraError) -> SourceFacts in
                let image = try ImageSource(fileAt: path)
                var info = try? image.header.get().info
                let contentHash: ContentHash
                switch image.reading {
                case .fromFile:
                    contentHash = try hashing.contentHash(ofFileAt: path)
                case .whole(let bytes):
                    contentHash = bytes.contentHash
                    // The probe counts a GIF's frames as `merge` groups its images; under `separate`
                    // a GIF whose images all have no delay is animated, not still.
                    if info?.format == .gif, subImages != .merge,
                       let records = try? ImageDecoders.animationRecords(of: bytes, subImages: subImages) {
                        info?.frameCount = max(1, records.frames.count)
                    }
                }
                var page: PageSize? = nil
                // A vector the build draws is measured now, so its renders are budgeted by their
                // real size (a 1700-point page is 100 MB of pixels at 3x). A file that does not
                // parse is left to its render job, which says why.
                if renders.contains(source.declaredFormat), case .whole(let bytes) = image.reading,
                   let format = VectorFormat(rawValue: source.declaredFormat.rawValue),
                   let document = try? VectorDocument(bytes: Array(UnsafeBufferPointer(start: bytes.pointer, count: bytes.count)),
                                                      format: format, path: path, embeddedImages: HeaderDimensions()) {
                    page = document.pageSize
                }
                return SourceFacts(path: path, fileSize: image.fileSize, contentHash: contentHash, info: info, page: page)
            }
            results.withLock { $0[source] = result }
        }
        return results.withLock { $0 }
    }
}
