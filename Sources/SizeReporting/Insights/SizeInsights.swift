/// The insights of a build (docs/size-report.md, "Insights"): per device class, over what stays
/// in the app and what is packed, the ways its download could be smaller, biggest saving first.
/// `size-report.json` carries it whole; the page and the Markdown show the biggest.
public struct SizeInsights: Sendable, Codable, Equatable {
    /// In the report's order of device classes.
    public var devices: [DeviceInsights]
    /// Distinct PNG images (by SHA-256) re-encoded to measure them.
    public var measuredImages: Int
    /// Distinct PNG images the budget (`InsightRules.Budget`) or a build folder out of reach left
    /// unmeasured: they get no image insight, only duplicates.
    public var unmeasuredImages: Int

    public init(devices: [DeviceInsights], measuredImages: Int, unmeasuredImages: Int) {
        self.devices = devices
        self.measuredImages = measuredImages
        self.unmeasuredImages = unmeasuredImages
    }
}

/// One device class's insights.
public struct DeviceInsights: Sendable, Codable, Equatable {
    public var device: String
    /// Biggest saving first; ties by kind (in `SizeInsight.Kind`'s order), then by first file.
    public var insights: [SizeInsight]

    public init(device: String, insights: [SizeInsight]) {
        self.device = device
        self.insights = insights.sorted { a, b in
            let kinds = SizeInsight.Kind.allCases
            return (-a.saving, kinds.firstIndex(of: a.kind)!, a.files.first ?? "", a.files.count)
                < (-b.saving, kinds.firstIndex(of: b.kind)!, b.files.first ?? "", b.files.count)
        }
    }
}
