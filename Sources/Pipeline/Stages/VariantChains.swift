import Encoding
import JobEngine
import Slicing
import TesseraCore

/// Builds the chain of jobs that makes each planned variant, sharing what an asset's variants
/// share (one downscale pass over the master, one animation pass, one timing read):
///
/// - a carried file (PDF, SVG, HEIC): carry;
/// - a rendered vector: rasterize → encode → write, one render per scale (and, when the set
///   preserves its vector representation, a carry of the vector beside them);
/// - a provided file: decode → copy (the decode proves it valid), or, when the asset's smaller
///   scales are made from that very file, downscale → copy (the one pass proves it valid);
/// - a generated still: downscale → encode → write;
/// - a generated animation: animate → write;
/// - and, for variants the pipeline force-decompresses, a ready bitmap from the same pixels.
///
/// Every file a chain writes is recorded in `outputs`, with the job that writes it, for the
/// selection, slice and pack stages to plan from.
struct VariantChains {
    let definition: PipelineDefinition
    let outputFolder: String
    /// The write, copy and carry jobs, which the manifest gathers.
    private(set) var written: [JobRef<WrittenVariant>] = []
    /// The ready-bitmap jobs.
    private(set) var bitmaps: [JobRef<WrittenBitmap>] = []
    /// The carries of vectors shipped beside their renders, which the manifest lists per asset.
    private(set) var vectors: [JobRef<WrittenVariant>] = []
    /// The timing jobs of animated assets.
    private(set) var timings: [JobRef<AssetAnimation>] = []
    private(set) var outputs = PlannedOutputs()

    /// Every generated scale of an asset, so that one pass over its master makes them all.
    private let generatedScales: [AssetID: [DisplayScale]]
    /// The format of each generated still scale of an asset.
    private let generatedFormats: [AssetID: [DisplayScale: ImageFormat]]
    /// The master each asset's generated scales come from.
    private let masters: [AssetID: SourceImage]
    private var downscales: [AssetID: JobRef<ScaledVariants>] = [:]
    private var animations: [AssetID: JobRef<AnimatedVariants>] = [:]
    private var timedAssets: Set<AssetID> = []
    private var carriedVectors: Set<AssetID> = []

    private let decode: DecodeStage
    private let rasterize: RasterizeStage?
    /// Groups whose catalog set preserves its vector representation.
    private let preservedVectors: Set<AssetID>
    /// Groups whose entry is explicitly sRGB.
    private let sRGBOnly: Set<AssetID>
    private let write: WriteStage
    private let copy: CopyStage
    private let carry: CarryStage
    private let encode: EncodeStage
    private let decompress: DecompressStage?
    private let animate: AnimateStage
    private let timing: TimingStage

    init(definition: PipelineDefinition, outputFolder: String, variants: [PlannedVariant],
         preservedVectors: Set<AssetID> = [], sRGBOnly: Set<AssetID> = []) {
        self.definition = definition
        self.preservedVectors = preservedVectors
        self.sRGBOnly = sRGBOnly
        self.outputFolder = outputFolder
        generatedScales = Dictionary(grouping: variants.filter {
            if case .generated = $0.origin { return true }
            return false
        }, by: \.asset).mapValues { $0.map(\.scale) }
        generatedFormats = variants.reduce(into: [:]) { formats, variant in
            if case .generated = variant.origin { formats[variant.asset, default: [:]][variant.scale] = variant.format }
        }
        masters = variants.reduce(into: [:]) { masters, variant in
            if case .generated(let master) = variant.origin { masters[variant.asset] = master }
        }
        decode = DecodeStage(options: definition.decode)
        rasterize = definition.rasterize.map { RasterizeStage(options: $0, maxPixels: definition.decode.maxPixels) }
        write = WriteStage(outputFolder: outputFolder)
        copy = CopyStage(outputFolder: outputFolder)
        carry = CarryStage(outputFolder: outputFolder)
        encode = EncodeStage(options: definition.encode)
        decompress = definition.decompress.map { DecompressStage(options: $0, outputFolder: outputFolder) }
        animate = AnimateStage(downscale: definition.downscale ?? DownscaleStageOptions(), encode: definition.encode,
                               timing: definition.timing, maxPixels: definition.decode.maxPixels)
        timing = TimingStage(timing: definition.timing)
    }

    /// Adds the chain that makes `planned` from its source.
    mutating func add(_ planned: PlannedVariant, source: SourceFacts, to graph: inout JobGraph) throws(TesseraError) {
        var variant = planned
        let animated = (source.info?.frameCount ?? 1) > 1
        // An animated GIF master keeps making GIFs (a still one would make PNGs).
        if animated, variant.source.declaredFormat == .gif, variant.format != .gif { variant = variant.writing(.gif) }
        if animated, !timedAssets.contains(variant.asset) {
            // Every source of an asset carries the same timing; the first one planned is read.
            timings.append(graph.add(timing.job(source: source, asset: variant.asset)))
            timedAssets.insert(variant.asset)
        }
        let pixels: Upstream<DecodedSource>
        switch variant.origin {
        case .provided where !variant.source.declaredFormat.isDecodable:
            // PDF, SVG and HEIC are carried byte for byte, as Xcode ships them.
            record(graph.add(carry.job(source: source, variant: variant)), variant)
            return
        case .provided:
            let bitmap = definition.decompress?.policy.shouldDecode(asset: variant.asset, animated: animated) ?? false
            if !animated, !bitmap, let options = definition.downscale, masters[variant.asset] == variant.source {
                // The downscale of this very file validates it: one decode instead of two.
                let pass = downscaleJob(for: variant.asset, master: variant.source, source: source, options: options,
                                        to: &graph)
                record(graph.add(copy.job(check: .downscaled(pass), source: source, variant: variant)), variant)
                return
            }
            let decoded = graph.add(decode.job(source))
            record(graph.add(copy.job(check: .decoded(decoded), source: source, variant: variant)), variant)
            pixels = Upstream(decoded)
        case .rendered(let vector):
            guard let rendered = try addRendered(variant, vector: vector, source: source, to: &graph) else { return }
            pixels = rendered
        case .generated(let master):
            guard let options = definition.downscale else { return }
            if animated {
                addAnimated(variant, master: master, source: source, to: &graph)
                return
            }
            pixels = try addGenerated(variant, master: master, source: source, options: options, to: &graph)
        }
        if let decompress, definition.decompress?.policy.shouldDecode(asset: variant.asset, animated: animated) == true {
            let estimated = graph.job(pixels.key)?.resultMemoryCost ?? 0
            let bitmap = graph.add(decompress.job(image: pixels, variant: variant, estimatedBytes: estimated))
            bitmaps.append(bitmap)
            outputs.addBitmap(group: variant.asset, scale: variant.scale,
                              PlannedFile(path: DecompressStage.relativePath(of: variant), producer: bitmap.key))
        }
    }

    /// A PDF or SVG drawn at the variant's scale, encoded and written; with a preserved vector
    /// representation, the vector file carried too (once per asset). The drawn pixels, for a
    /// ready bitmap; nil without a rasterize stage.
    private mutating func addRendered(_ variant: PlannedVariant, vector: SourceImage, source: SourceFacts,
                                      to graph: inout JobGraph) throws(TesseraError) -> Upstream<DecodedSource>? {
        guard let rasterize else { return nil }
        let rendered = graph.add(rasterize.job(source: source, format: vector.declaredFormat,
                                               factor: variant.renderFactor, sRGB: sRGBOnly.contains(variant.asset)))
        let encoded = graph.add(try encode.job(
            image: Upstream(rendered), format: variant.format, subject: "\(outputFolder)/\(variant.outputPath)",
            estimatedBytes: graph.job(rendered.key)?.resultMemoryCost ?? 0))
        record(graph.add(write.job(encoded: Upstream(encoded), variant: variant)), variant)
        if preservedVectors.contains(variant.asset), let kept = variant.keptVector,
           carriedVectors.insert(variant.asset).inserted {
            let job = graph.add(carry.job(source: source, variant: kept))
            vectors.append(job)
            outputs.addVector(group: variant.asset, PlannedFile(path: kept.outputPath, producer: job.key))
        }
        return Upstream(rendered)
    }

    /// downscale → encode → write; the downscale is shared by the asset's other generated scales,
    /// and encodes in its pass the scales whose bitmaps nothing else needs (then: downscale → write).
    private mutating func addGenerated(_ variant: PlannedVariant, master: SourceImage, source: SourceFacts,
                                       options: DownscaleStageOptions, to graph: inout JobGraph)
        throws(TesseraError) -> Upstream<DecodedSource> {
        let downscale = downscaleJob(for: variant.asset, master: master, source: source, options: options, to: &graph)
        let pixels = Upstream<DecodedSource>.scaled(downscale, variant.scale)
        let lossless = source.info?.webpBitstream == .lossless
        if encodedInPass(variant.asset, variant.scale) {
            // A format that cannot be encoded fails here, with the encode stage's reason.
            _ = try encode.encoding(for: variant.format, losslessMaster: lossless)
            record(graph.add(write.job(encoded: .downscaled(downscale, variant.scale), variant: variant)), variant)
            return pixels
        }
        let estimated = source.info.map {
            let size = VariantGeometry.size(of: master, width: $0.uprightWidth, height: $0.uprightHeight,
                                            targetScale: variant.scale)
            return size.width * size.height * 4
        } ?? 0
        let encoded = graph.add(try encode.job(
            image: pixels, format: variant.format, subject: "\(outputFolder)/\(variant.outputPath)",
            estimatedBytes: estimated, losslessMaster: source.info?.webpBitstream == .lossless))
        record(graph.add(write.job(encoded: Upstream(encoded), variant: variant)), variant)
        return pixels
    }

    /// The one downscale pass over `asset`'s master, added the first time a chain needs it.
    private mutating func downscaleJob(for asset: AssetID, master: SourceImage, source: SourceFacts,
                                       options: DownscaleStageOptions, to graph: inout JobGraph) -> JobRef<ScaledVariants> {
        if let existing = downscales[asset] { return existing }
        let stage = DownscaleStage(options: options, decodeOptions: definition.decode, memoryBudget: options.memoryBudget)
        var encodings: [DisplayScale: EncoderSettings] = [:]
        for (scale, format) in generatedFormats[asset] ?? [:] where encodedInPass(asset, scale) {
            encodings[scale] = try? encode.encoding(for: format, losslessMaster: source.info?.webpBitstream == .lossless)
        }
        let job = graph.add(stage.job(source: source, master: master, targets: generatedScales[asset] ?? [],
                                      encodings: encodings))
        downscales[asset] = job
        return job
    }

    /// Whether the downscale pass encodes this generated still scale itself: always, unless its
    /// bitmap is wanted too (a force-decompressed variant), so that no bitmap waits for an encode.
    private func encodedInPass(_ asset: AssetID, _ scale: DisplayScale) -> Bool {
        !(definition.decompress?.policy.shouldDecode(asset: asset, animated: false) ?? false)
    }

    /// animate → write; one animation pass makes every generated scale of the asset.
    private mutating func addAnimated(_ variant: PlannedVariant, master: SourceImage, source: SourceFacts,
                                      to graph: inout JobGraph) {
        let job: JobRef<AnimatedVariants>
        if let existing = animations[variant.asset] {
            job = existing
        } else {
            job = graph.add(animate.job(source: source, masterScale: master.scale,
                                                  targets: generatedScales[variant.asset] ?? [variant.scale],
                                                  format: variant.format))
            animations[variant.asset] = job
        }
        record(graph.add(write.job(encoded: .animated(job, variant.scale), variant: variant)), variant)
    }

    /// A job that writes `variant`'s file: gathered by the manifest, planned for the packs.
    private mutating func record(_ job: JobRef<WrittenVariant>, _ variant: PlannedVariant) {
        written.append(job)
        outputs.addVariant(group: variant.asset, scale: variant.scale, PlannedFile(path: variant.outputPath, producer: job.key))
    }
}
