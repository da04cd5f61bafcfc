import Foundation
import Delivery

/// `App Thinning Size Report.txt` in Xcode's layout, one variant per device class, so teams that
/// diff Xcode's report keep doing so: the app's size is its initial-install packs, the on-demand
/// resources' size the rest, each compressed (bundles as stored) and uncompressed (their files).
public enum ThinningSizeReportText {
    public static func render(_ report: SizeReport) -> String {
        var text = "App Thinning Size Report for All Variants of \(report.pipeline)\n"
        for device in report.devices {
            let total = device.install + device.onDemand
            text += "\nVariant: \(report.pipeline)-\(device.device).ipa\n"
            text += "Supported variant descriptors: [device: \(device.device)]\n"
            text += "App + On Demand Resources size: \(size(total.bytes)) compressed, \(size(total.unpacked)) uncompressed\n"
            text += "App size: \(size(device.install.bytes)) compressed, \(size(device.install.unpacked)) uncompressed\n"
            text += "On Demand Resources size: \(size(device.onDemand.bytes)) compressed, \(size(device.onDemand.unpacked)) uncompressed\n"
        }
        return text
    }

    /// Xcode's wording: `Zero KB`, `519 KB`, `6.7 MB`, `1.2 GB` (decimal units, as Finder counts).
    public static func size(_ bytes: Int) -> String {
        if bytes == 0 { return "Zero KB" }
        if bytes < 1_000_000 { return "\(max(1, Int((Double(bytes) / 1000).rounded()))) KB" }
        if bytes < 1_000_000_000 { return String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        return String(format: "%.1f GB", Double(bytes) / 1_000_000_000)
    }
}
