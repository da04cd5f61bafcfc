import Decoding
import Delivery
import FrameTiming
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// An animated master → how iOS should play it (its frame timing), for the manifest.
struct TimingStage: Stage {
    typealias Output = AssetAnimation
    static let name = StageName.timing
    static let version = 1
    let timing: TimingStageOptions

    /// Reads the master's frame table and computes how iOS should play it.
    func job(source: SourceFacts, asset: AssetID) -> Job<AssetAnimation> {
        let key = Self.key(options: ["clamp": timing.clamp.description, "max-slots": String(timing.maxSlots),
                                   "sub-images": timing.subImages.rawValue, "asset": asset.name],
                         inputs: [source.contentHash])
        let clamp = timing.clamp, maxSlots = timing.maxSlots, subImages = timing.subImages
        return job(key: key, subject: source.path, memoryCost: source.fileSize, priority: StagePriority.write) { _ in
            let records = try ImageDecoders.animationRecords(of: try SourceBytes(contentsOfFile: source.path),
                                                             subImages: subImages)
            let delays = records.frames.map(\.delayMs)
            let timing = try FrameTiming(delaysMs: delays, clamp: clamp, maxSlots: maxSlots)
            return AssetAnimation(asset: asset, entry: AnimationEntry(
                delaysMs: delays, durationsMs: timing.frames.map(\.durationMs), repeats: timing.frames.map(\.repeats),
                tickMs: timing.tickMs, totalMs: timing.totalMs, loopCount: records.loopField,
                plays: LoopSemantics.plays(loopField: records.loopField, isGIF: records.format == .gif),
                clamp: clamp.description, quantised: timing.quantised, maxErrorMs: timing.maxErrorMs))
        }
        // No file, but reading it means parsing the whole animation: worth keeping.
        .cached(under: ".")
    }
}

/// An animated asset's timing, for the manifest.
struct AssetAnimation: CachedOutput {
    let asset: AssetID
    let entry: AnimationEntry

    var files: [String] { [] }
}
