import Delivery
import Dispatch
import Foundation
import Synchronization
import TesseraCore

/// The thumbnails a report page embeds: one per distinct picture (by the variant's SHA-256), for
/// the assets a reader sees first (each device's biggest, and the biggest changes), so a build
/// of thousands of assets still makes a small page quickly.
struct ReportPictures {
    /// Data URLs, in the order the page refers to them.
    private(set) var urls: [String] = []
    /// Asset name → index into `urls`, for the current and the previous build.
    private(set) var current: [String: Int] = [:]
    private(set) var previous: [String: Int] = [:]

    init(current now: ReportedBuild, previous was: ReportedBuild?, currentAssets: Set<String>, previousAssets: Set<String>,
         maker: (any ThumbnailMaking)?) {
        guard let maker else { return }
        // Which file each asset is pictured by; distinct files by content hash.
        var jobs: [ContentHash: String] = [:]
        func choose(_ build: ReportedBuild, _ names: Set<String>) -> [String: ContentHash] {
            guard let folder = build.folder else { return [:] }
            var chosen: [String: ContentHash] = [:]
            for asset in build.manifest.assets where names.contains(asset.name.name) {
                guard let variant = Self.picture(of: asset, side: maker.side, among: { build.pictured?.contains($0.path) ?? true }) else { continue }
                chosen[asset.name.name] = variant.sha256
                if jobs[variant.sha256] == nil { jobs[variant.sha256] = folder + "/" + variant.path }
            }
            return chosen
        }
        let nowChosen = choose(now, currentAssets)
        let wasChosen = was.map { choose($0, previousAssets) } ?? [:]
        // Made in parallel, placed in hash order so the page is the same whatever finishes first.
        let ordered = jobs.sorted { $0.key.hex < $1.key.hex }
        let made = Mutex<[Int: ReportThumbnail]>([:])
        DispatchQueue.concurrentPerform(iterations: ordered.count) { index in
            if let thumbnail = maker.thumbnail(ofFile: ordered[index].value) {
                made.withLock { $0[index] = thumbnail }
            }
        }
        let thumbnails = made.withLock { $0 }
        var indexByHash: [ContentHash: Int] = [:]
        for (index, job) in ordered.enumerated() {
            guard let thumbnail = thumbnails[index] else { continue }
            indexByHash[job.key] = urls.count
            urls.append("data:\(thumbnail.mediaType);base64,\(Data(thumbnail.bytes).base64EncodedString())")
        }
        current = nowChosen.compactMapValues { indexByHash[$0] }
        previous = wasChosen.compactMapValues { indexByHash[$0] }
    }

    /// The variant an asset is pictured by: the smallest raster variant at least `side` pixels
    /// on its longer side (cheap to decode, sharp enough), else the largest one; of those
    /// `available` allows.
    static func picture(of asset: AssetEntry, side: Int, among available: (VariantEntry) -> Bool = { _ in true }) -> VariantEntry? {
        let raster = asset.variants.filter { $0.format != .pdf && $0.format != .svg && available($0) }
        let pixels = { (variant: VariantEntry) in variant.width * variant.height }
        let bigEnough = raster.filter { max($0.width, $0.height) >= side }
        if let smallest = bigEnough.min(by: { (pixels($0), $0.path) < (pixels($1), $1.path) }) { return smallest }
        return raster.max { (pixels($0), $1.path) < (pixels($1), $0.path) }
    }
}
