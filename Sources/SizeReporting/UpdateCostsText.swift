/// The update costs (`UpdateCosts`) as the text and Markdown reports write them: one line or row
/// per device class, the delta next to the whole-bundle path so a reader sees what the delta saves.
enum UpdateCostsText {
    /// `patch (513 B)`: how the manifest comes, and what it costs.
    static func manifest(_ costs: UpdateCosts) -> String {
        switch costs.manifestWay {
        case .unchanged: "unchanged"
        case .patch: "patch (\(ByteText.size(costs.manifestBytes)))"
        case .compressed: "manifest.json.xz (\(ByteText.size(costs.manifestBytes)); no patch from the previous manifest)"
        case .whole: "manifest.json (\(ByteText.size(costs.manifestBytes)); no update index)"
        }
    }

    /// `3 objects (13 KB)`, `1 bundle whole`, or both.
    static func parts(_ device: UpdateCosts.DeviceUpdate) -> String {
        if device.bundles == 0 { return "no bundle changed" }
        var parts: [String] = []
        if device.objects > 0 || device.wholeBundles < device.bundles {
            parts.append("\(device.objects) object\(device.objects == 1 ? "" : "s") (\(ByteText.size(device.objectBytes)))")
        }
        if device.wholeBundles > 0 { parts.append("\(device.wholeBundles) bundle\(device.wholeBundles == 1 ? "" : "s") whole") }
        return "\(device.bundles) bundle\(device.bundles == 1 ? "" : "s") changed: " + parts.joined(separator: ", ")
    }

    /// `1.2%` of the whole-bundle path, or nothing when that is zero.
    static func share(_ device: UpdateCosts.DeviceUpdate) -> String {
        guard device.wholeBytes > 0 else { return "" }
        let percent = Double(device.deltaBytes) / Double(device.wholeBytes) * 100
        return percent < 10 ? String(format: "%.1f%%", percent) : "\(Int(percent.rounded()))%"
    }

    /// The Markdown section: a table of every device class's update.
    static func markdown(_ costs: UpdateCosts, names: [String: String]) -> String {
        var text = "\nUpdate from the previous build (a device holding every pack of it; manifest: \(SizeReportMarkdown.plain(manifest(costs)))):\n\n"
        text += "| Device | Delta | Whole bundles | Share | What |\n|---|---:|---:|---:|---|\n"
        for device in costs.devices {
            let name = names[device.device].map { "\(SizeReportMarkdown.plain($0)) (`\(device.device)`)" } ?? "`\(device.device)`"
            text += "| \(name) | \(ByteText.size(device.deltaBytes)) | \(ByteText.size(device.wholeBytes)) | \(share(device)) | \(parts(device)) |\n"
        }
        return text
    }

    /// The text section, after Xcode's variants (so tools that read those still do).
    static func text(_ costs: UpdateCosts) -> String {
        var text = "\nUpdate from the previous build (manifest: \(manifest(costs))):\n"
        for device in costs.devices {
            text += "\(device.device): \(ByteText.size(device.deltaBytes)) by delta, \(ByteText.size(device.wholeBytes)) whole"
                + (device.wholeBytes > 0 ? " (\(share(device)))" : "") + "; \(parts(device))\n"
        }
        return text
    }
}
