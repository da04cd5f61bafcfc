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
        if let update = report.update { text += UpdateCostsText.text(update) }
        return text
    }

    /// Xcode's wording: `Zero KB`, `519 KB`, `6.7 MB`, `1.2 GB` (`ByteText.xcode`).
    public static func size(_ bytes: Int) -> String { ByteText.xcode(bytes) }
}
