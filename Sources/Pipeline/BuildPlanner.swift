import Decoding
import Dispatch
import Foundation
import JobEngine
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

    struct Plan {
        var graph: JobGraph
        var manifestJob: JobKey
        /// The pack job that publishes the final manifest, when the pipeline packs.
        var publishJob: JobKey?
        /// Problems found while planning (duplicate scales, no upscaling, unreadable files).
        var problems: [BuildProblem]
        var variantCount: Int
    }

    func plan() throws(TesseraError) -> Plan {
        // An output folder inside the input folder is never read back as input.
        let read = try FolderCatalogReader(unsuffixedScale: definition.variants.unsuffixedScale,
                                           excluding: [outputFolder]).read(root: inputFolder)
        let sources = CatalogSources.sourceImages(read.assets, unsuffixedScale: definition.variants.unsuffixedScale)
        let planner = VariantPlanner(scales: definition.variants.scales, generatesMissing: definition.downscale != nil)
        let variantPlan = planner.plan(sources.images, copyOnly: sources.copyOnly, slotScales: sources.slotScales)
        var problems = variantPlan.problems.map {
            BuildProblem(severity: $0.isError ? .error : .warning, file: "\(inputFolder)/\($0.file)", stage: "plan",
                         reason: $0.reason)
        }
        problems += read.problems.map {
            BuildProblem(severity: $0.isError ? .error : .warning, file: "\(inputFolder)/\($0.file)", stage: "catalog",
                         reason: ($0.key.map { "'\($0)': " } ?? "") + $0.reason)
        }
        let facts = gatherFacts(Array(Set(variantPlan.variants.map(\.source))).sorted())

        var graph = JobGraph()
        let decodeStage = DecodeStage(options: definition.decode)
        let output = OutputStage(outputFolder: outputFolder)
        let encodeStage = EncodeStage(options: definition.encode)
        let decompressStage = definition.decompress.map { DecompressStage(options: $0, outputFolder: outputFolder) }
        var written: [JobKey] = []
        var bitmaps: [JobKey] = []
        var outputs = PlannedOutputs()
        // Every generated scale of an asset comes from one downscale pass over its master.
        let generatedScales = Dictionary(grouping: variantPlan.variants.filter {
            if case .generated = $0.origin { return true }
            return false
        }, by: \.asset).mapValues { $0.map(\.scale) }
        var downscales: [AssetID: JobKey] = [:]
        var animations: [AssetID: JobKey] = [:]
        var timings: [JobKey] = []
        var timedAssets: Set<AssetID> = []
        let animationStage = AnimationStage(downscale: definition.downscale ?? DownscaleStageOptions(),
                                            encode: definition.encode, timing: definition.timing,
                                            maxPixels: definition.decode.maxPixels)
        for planned in variantPlan.variants {
            guard let fact = facts[planned.source] else { continue }
            var variant = planned
            let source: SourceFacts
            switch fact {
            case .failure(let error):
                problems.append(BuildProblem(severity: .error, file: error.file ?? variant.source.relativePath,
                                             stage: "read", reason: error.reason))
                continue
            case .success(let value):
                source = value
            }
            let animated = (source.info?.frameCount ?? 1) > 1
            // An animated GIF master keeps making GIFs (a still one would make PNGs).
            if animated, variant.source.declaredFormat == .gif, variant.format != .gif { variant = variant.writing(.gif) }
            if animated, !timedAssets.contains(variant.asset) {
                // Every source of an asset carries the same timing; the first one planned is read.
                timings.append(graph.add(animationStage.timingJob(source: source, asset: variant.asset)))
                timedAssets.insert(variant.asset)
            }
            let pixels: PixelSource
            switch variant.origin {
            case .provided where !variant.source.declaredFormat.isDecodable:
                // PDF, SVG and HEIC are carried byte for byte, as Xcode ships them.
                let carry = graph.add(output.carryJob(source: source, variant: variant))
                written.append(carry)
                outputs.addVariant(group: variant.asset, scale: variant.scale,
                                   PlannedFile(path: variant.outputPath, producer: carry))
                continue
            case .provided:
                let decode = graph.add(decodeStage.job(for: source))
                let copy = graph.add(output.copyJob(decode: decode, source: source, variant: variant))
                written.append(copy)
                outputs.addVariant(group: variant.asset, scale: variant.scale,
                                   PlannedFile(path: variant.outputPath, producer: copy))
                pixels = .decoded(decode)
            case .generated(let master):
                guard let downscaleOptions = definition.downscale else { continue }
                if animated {
                    let job: JobKey
                    if let existing = animations[variant.asset] {
                        job = existing
                    } else {
                        job = graph.add(animationStage.variantsJob(
                            source: source, masterScale: master.scale,
                            targets: generatedScales[variant.asset] ?? [variant.scale], format: variant.format))
                        animations[variant.asset] = job
                    }
                    let write = graph.add(output.writeJob(encoded: job, variant: variant, animated: true))
                    written.append(write)
                    outputs.addVariant(group: variant.asset, scale: variant.scale,
                                       PlannedFile(path: variant.outputPath, producer: write))
                    continue
                }
                let downscale: JobKey
                if let existing = downscales[variant.asset] {
                    downscale = existing
                } else {
                    let stage = DownscaleStage(options: downscaleOptions, decodeOptions: definition.decode,
                                               memoryBudget: downscaleOptions.memoryBudget)
                    downscale = graph.add(stage.job(source: source, master: master,
                                                    targets: generatedScales[variant.asset] ?? [variant.scale]))
                    downscales[variant.asset] = downscale
                }
                pixels = .scaled(downscale, variant.scale)
                let estimated = source.info.map {
                    let size = VariantGeometry.size(of: master, width: $0.uprightWidth, height: $0.uprightHeight,
                                                    targetScale: variant.scale)
                    return size.width * size.height * 4
                } ?? 0
                let encode = graph.add(try encodeStage.job(
                    image: pixels, format: variant.format, subject: "\(outputFolder)/\(variant.outputPath)",
                    estimatedBytes: estimated, losslessMaster: source.info?.colorModel.hasPrefix("lossless") ?? false))
                let write = graph.add(output.writeJob(encoded: encode, variant: variant))
                written.append(write)
                outputs.addVariant(group: variant.asset, scale: variant.scale,
                                   PlannedFile(path: variant.outputPath, producer: write))
            }
            if let decompressStage, decompressStage.options.policy.shouldDecode(asset: variant.asset, animated: animated) {
                let estimated = graph.job(pixels.key)?.resultMemoryCost ?? 0
                let bitmap = graph.add(decompressStage.job(image: pixels, variant: variant, estimatedBytes: estimated))
                bitmaps.append(bitmap)
                outputs.addBitmap(group: variant.asset, scale: variant.scale,
                                  PlannedFile(path: DecompressStage.relativePath(of: variant), producer: bitmap))
            }
        }
        // Unreadable files are reported once, not once per variant.
        problems = Array(Set(problems)).sorted()
        let manifestPath = "\(outputFolder)/\(definition.manifest.file)"
        let dataStage = DataStage(inputFolder: inputFolder, outputFolder: outputFolder)
        var data: [JobKey] = []
        for asset in read.assets where asset.kind != .image && asset.kind != .appIcon {
            for file in DataStage.files(of: asset) {
                let job = graph.add(dataStage.job(for: asset, file: file))
                data.append(job)
                outputs.addData(PlannedData(name: asset.name, kind: asset.kind.rawValue,
                                            file: PlannedFile(path: DataStage.relativePath(of: asset, file: file),
                                                              producer: job),
                                            tags: asset.tags))
            }
        }
        // With a pack stage, the pack job publishes manifest.json once the bundles exist.
        let manifest = graph.add(ManifestStage(pipelineName: definition.name, path: manifestPath, tags: sources.tags,
                                               presentation: sources.presentation, writes: definition.pack == nil)
            .job(variants: written, bitmaps: bitmaps, timings: timings, data: data))
        graph.setCaching(StageCaching.manifest(root: outputFolder,
                                               file: definition.pack == nil ? definition.manifest.file : nil), for: manifest)
        var published: JobKey?
        if let slice = definition.slice {
            // The selection is made once; the slice report and the pack stage both read it.
            var selections: [DeviceSelection] = []
            for id in slice.devices {
                selections.append(DeviceSelection(device: try DeviceCatalog.device(id), assets: read.assets,
                                                  outputs: outputs))
            }
            graph.add(SliceStage(outputFolder: outputFolder, selections: selections).job(manifest: manifest))
            if let pack = definition.pack {
                published = PackStage(options: pack, outputFolder: outputFolder, manifestPath: manifestPath,
                                      selections: selections, outputs: outputs)
                    .addJobs(to: &graph, manifest: manifest)
            }
        }
        // What aggregating jobs read besides their inputs' keys (tags, traits, pack options) is in
        // the pipeline and the catalog: any change there makes their cache keys new.
        graph.addCacheSalt(ContentHash.of(Array("\(String(reflecting: definition))\n\(String(reflecting: read.assets))".utf8)).hex,
                           stages: ["manifest", "slice", "publish"])
        return Plan(graph: graph, manifestJob: manifest, publishJob: published, problems: problems,
                    variantCount: written.count)
    }

    /// Hashes and probes every source, one file per core at a time. PNG and JPEG are hashed in
    /// chunks and probed from the file, so even a huge master is never held whole while planning.
    private func gatherFacts(_ sources: [SourceImage]) -> [SourceImage: Result<SourceFacts, TesseraError>] {
        let results = Mutex<[SourceImage: Result<SourceFacts, TesseraError>]>([:])
        let folder = inputFolder, subImages = definition.timing.subImages, hashing = self.hashing
        DispatchQueue.concurrentPerform(iterations: sources.count) { index in
            let source = sources[index]
            let path = "\(folder)/\(source.relativePath)"
            let result = Result { () throws(TesseraError) -> SourceFacts in
                if let format = try? ImageDecoders.format(ofFileAt: path), format == .png || format == .jpeg,
                   let streaming = ImageDecoders.decoder(for: format) as? any RowStreamingDecoder {
                    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                    return SourceFacts(path: path, fileSize: size, contentHash: try hashing.contentHash(ofFileAt: path),
                                       info: try? streaming.probe(fileAt: path))
                }
                let bytes = try SourceBytes(contentsOfFile: path)
                var info = try? ImageDecoders.decoder(for: bytes).probe(bytes)
                // The probe counts a GIF's frames as `merge` groups its images; under `separate`
                // a GIF whose images all have no delay is animated, not still.
                if info?.format == .gif, subImages != .merge,
                   let records = try? ImageDecoders.animationRecords(of: bytes, subImages: subImages) {
                    info?.frameCount = max(1, records.frames.count)
                }
                return SourceFacts(path: path, fileSize: bytes.count, contentHash: bytes.contentHash, info: info)
            }
            results.withLock { $0[source] = result }
        }
        return results.withLock { $0 }
    }
}
