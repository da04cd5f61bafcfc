import Delivery
import TesseraCore

extension SizeInsights {
    /// The insights of `report`, the size report of `manifest`. `folder`: the build's output
    /// folder, where the measurer reads the images (nil: duplicates only); `measurer`: what
    /// re-encodes them (nil: duplicates only).
    public static func make(_ report: SizeReport, manifest: Manifest, folder: String?, measurer: (any ImageSavingsMeasuring)?,
                            budget: InsightRules.Budget = .standard) -> SizeInsights {
        let facts = BuiltFileFacts(manifest)
        // Each device's files, once each, with the asset they belong to.
        let owners = report.devices.map { device in
            var owner: [String: String] = [:]
            for asset in device.assets {
                for file in asset.files where owner[file] == nil { owner[file] = asset.asset }
            }
            return owner
        }
        let measurements = ImageMeasurements(paths: Set(owners.flatMap(\.keys)), facts: facts, folder: folder,
                                             measurer: measurer, budget: budget)
        var devices: [DeviceInsights] = []
        for (device, owner) in zip(report.devices, owners) {
            var insights = duplicates(owner, facts: facts)
            for (path, asset) in owner {
                guard let file = facts[path], file.format == .png, let measured = measurements.byHash[file.sha256] else { continue }
                insights += imageInsights(measured, asset: asset, path: path, mayBeJPEG: !file.appIcon)
            }
            devices.append(DeviceInsights(device: device.device, insights: insights))
        }
        return SizeInsights(devices: devices, measuredImages: measurements.measured, unmeasuredImages: measurements.unmeasured)
    }

    /// Files of the same content shipped more than once: every copy but one is wasted.
    static func duplicates(_ owner: [String: String], facts: BuiltFileFacts) -> [SizeInsight] {
        var copies: [ContentHash: [String]] = [:]
        for path in owner.keys {
            if let file = facts[path], file.bytes > 0 { copies[file.sha256, default: []].append(path) }
        }
        return copies.values.filter { $0.count > 1 }.map { paths in
            let bytes = facts[paths[0]]!.bytes
            return SizeInsight(kind: .duplicate, saving: (paths.count - 1) * bytes, assets: Set(paths.map { owner[$0]! }).sorted(),
                               files: paths.sorted(), bytes: bytes)
        }
    }

    /// What re-encoding one PNG showed, as far as it passes `InsightRules`. `mayBeJPEG`: false for
    /// an app icon, which must stay PNG.
    static func imageInsights(_ measured: ImageMeasurement, asset: String, path: String, mayBeJPEG: Bool) -> [SizeInsight] {
        var insights: [SizeInsight] = []
        let bytes = measured.bytes
        if let losslessBytes = measured.losslessBytes, bytes - losslessBytes > 0,
           Double(bytes - losslessBytes) >= InsightRules.losslessMinimumSaving * Double(bytes) {
            insights.append(SizeInsight(kind: .lossless, saving: bytes - losslessBytes, assets: [asset], files: [path], bytes: bytes,
                                        estimate: losslessBytes))
        }
        if let cost = measured.opaqueAlphaCost {
            insights.append(SizeInsight(kind: .opaqueAlpha, saving: max(0, cost), assets: [asset], files: [path], bytes: bytes))
        }
        if mayBeJPEG, let jpeg = measured.jpeg, Double(jpeg.bytes) <= InsightRules.jpegMaximumShare * Double(bytes),
           jpeg.psnr >= InsightRules.jpegMinimumPSNR {
            insights.append(SizeInsight(kind: .jpeg, saving: bytes - jpeg.bytes, assets: [asset], files: [path], bytes: bytes,
                                        estimate: jpeg.bytes, quality: jpeg.quality, psnr: jpeg.psnr))
        }
        return insights
    }
}
