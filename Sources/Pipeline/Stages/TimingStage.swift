import Decoding
import Delivery
import FrameTiming
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// An animated master → how iOS should play it (its frame timing), for the manifest.
struct TimingStage: Stage {
    struct Input: Encodable, Sendable {
        let source: SourceFacts
        let asset: AssetID
    }
    typealias Output = AssetAnimation
    static let kind = JobKind.timing
    static let version = 1
    static let priority = StagePriority.write
    let options: Options

    struct Options: Codable, Hashable, Sendable {
        let clamp: ClampPolicy
        let maxSlots: Int
        let subImages: SubImagePolicy
    }

    init(timing: TimingStageOptions) {
        options = Options(clamp: timing.clamp, maxSlots: timing.maxSlots, subImages: timing.subImages)
    }

    func job(source: SourceFacts, asset: AssetID) -> Job<AssetAnimation> {
        job(Input(source: source, asset: asset))
    }

    func subject(of input: Input) -> String { input.source.path }
    func memoryCost(of input: Input) -> JobMemory { JobMemory(running: input.source.fileSize) }
    /// No file, but reading it means parsing the whole animation: worth keeping.
    func cacheRoot(for input: Input) -> String? { "." }
    func cachedFiles(for input: Input) -> [String]? { [] }

    /// Reads the master's frame table and computes how iOS should play it.
    func run(_ input: Input, context: JobContext) throws -> AssetAnimation {
        let records = try ImageDecoders.animationRecords(of: try SourceBytes(contentsOfFile: input.source.path),
                                                         subImages: options.subImages)
        let delays = records.frames.map(\.delayMs)
        let clamp = options.clamp
        let timing = try FrameTiming(delaysMs: delays, clamp: clamp, maxSlots: options.maxSlots)
        return AssetAnimation(asset: input.asset, entry: AnimationEntry(
            delaysMs: delays, durationsMs: timing.frames.map(\.durationMs), repeats: timing.frames.map(\.repeats),
            tickMs: timing.tickMs, totalMs: timing.totalMs, loopCount: records.loopField,
            plays: LoopSemantics.plays(loopField: records.loopField, isGIF: records.format == .gif),
            clamp: clamp.description, quantised: timing.quantised, maxErrorMs: timing.maxErrorMs))
    }
}

/// An animated asset's timing, for the manifest.
struct AssetAnimation: CachedOutput {
    let asset: AssetID
    let entry: AnimationEntry

    var files: [String] { [] }
}
