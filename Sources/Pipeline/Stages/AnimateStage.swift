import Decoding
import Delivery
import Downscaling
import Encoding
import FrameTiming
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// An animated master → its smaller scales, re-encoded frame by frame.
struct AnimateStage: Stage {
    struct Input: Encodable, Sendable {
        let source: SourceFacts
        let masterScale: DisplayScale
        let targets: [DisplayScale]
        /// GIF for GIF masters, WebP for WebP.
        let format: ImageFormat
    }
    typealias Output = AnimatedVariants
    static let kind = JobKind.animate
    static let version = 1
    static let priority = StagePriority.downscale
    let options: Options

    struct Options: Codable, Hashable, Sendable {
        let filter: ResamplingFilter
        /// Lossy WebP settings (a lossless master's frames stay lossless).
        let webp: WebPEncoder
        let subImages: SubImagePolicy
        let maxPixels: Int
    }

    init(downscale: DownscaleStageOptions, encode: EncodeStageOptions, timing: TimingStageOptions, maxPixels: Int) {
        options = Options(filter: downscale.filter, webp: encode.webp, subImages: timing.subImages, maxPixels: maxPixels)
    }

    /// One pass over the master's frames: each composited frame is downscaled to every target
    /// and handed to that target's encoder (animated GIF for GIF masters, animated WebP for WebP),
    /// with its delay and the loop count unchanged. Holds the canvas, the saved canvas and one
    /// small frame per target, whatever the frame count.
    func job(source: SourceFacts, masterScale: DisplayScale, targets: [DisplayScale], format: ImageFormat) -> Job<AnimatedVariants> {
        job(Input(source: source, masterScale: masterScale, targets: targets, format: format))
    }

    func subject(of input: Input) -> String { input.source.path }

    func memoryCost(of input: Input) -> JobMemory {
        let canvas = input.source.info?.decodedByteCount ?? input.source.fileSize * 4
        return JobMemory(running: input.source.fileSize + canvas * 4, result: canvas)
    }

    func run(_ input: Input, context: JobContext) throws -> AnimatedVariants {
        let source = input.source, targets = input.targets, masterScale = input.masterScale, format = input.format
        let filter = options.filter, webp = options.webp, maxPixels = options.maxPixels, subImages = options.subImages
        let bytes = try SourceBytes(contentsOfFile: source.path)
        let records = try ImageDecoders.animationRecords(of: bytes, subImages: subImages)
        let reader = try ImageDecoders.frames(of: bytes, options: DecodeOptions(maxPixels: maxPixels,
                                                                                subImages: subImages))
        let plays: AnimationPlays = LoopSemantics.plays(loopField: records.loopField, isGIF: records.format == .gif)
            .map { .times($0) } ?? .forever
        let sizes = targets.map {
            VariantGeometry.size(masterWidth: reader.info.width, masterHeight: reader.info.height,
                                 masterScale: masterScale.factor, targetScale: $0.factor)
        }
        var encoders: [any AnimatedImageEncoder] = []
        for size in sizes {
            if format == .gif {
                encoders.append(try AnimatedGIFEncoder(width: size.width, height: size.height, plays: plays))
            } else {
                encoders.append(try AnimatedWebPEncoder(width: size.width, height: size.height, plays: plays,
                                                        quality: webp.quality,
                                                        lossless: reader.info.webpBitstream == .lossless))
            }
        }
        let resampler = Resampler(filter: filter)
        while let frame = try reader.nextFrame() {
            try context.checkCancellation()
            for (encoder, size) in zip(encoders, sizes) {
                try encoder.add(try resampler.resize(frame.canvas, width: size.width, height: size.height),
                                durationMs: frame.delayMs)
            }
        }
        var variants: [DisplayScale: EncodedVariant] = [:]
        let warnings = reader.truncation.map { [StageNote(.decode, $0)] } ?? []
        for ((scale, encoder), size) in zip(zip(targets, encoders), sizes) {
            variants[scale] = EncodedVariant(bytes: try encoder.finish(), width: size.width, height: size.height,
                                             warnings: warnings)
        }
        return AnimatedVariants(variants: variants)
    }
}

/// The smaller scales of an animated asset, encoded.
struct AnimatedVariants: Sendable {
    let variants: [DisplayScale: EncodedVariant]
}
