/// The insights in `size-report.md`: the biggest savings, each once with the device classes it
/// applies to (most builds give several device classes the same files), and a count of the rest.
enum InsightsMarkdown {
    /// At most this many insights are listed; the rest are counted.
    static let listed = 10

    static func render(_ insights: SizeInsights) -> String {
        var text = "\n### Insights\n\n"
        let rows = merged(insights)
        if rows.isEmpty {
            text += "Nothing shipped twice, and no measured PNG would be much smaller.\n"
        } else {
            text += "| Asset | Insight | Saving | Device classes |\n|---|---|---:|---|\n"
            for row in rows.prefix(listed) {
                text += "| \(row.insight.assets.map(SizeReportMarkdown.code).joined(separator: ", ")) | "
                    + "\(SizeReportMarkdown.plain(row.insight.advice)) | \(ThinningSizeReportText.size(row.insight.saving)) | "
                    + "\(row.devices.map(SizeReportMarkdown.code).joined(separator: ", ")) |\n"
            }
            if rows.count > listed { text += "\n…and \(rows.count - listed) more in size-report.html and size-report.json.\n" }
        }
        if insights.unmeasuredImages > 0 {
            text += "\nImages measured: \(insights.measuredImages) PNGs, the biggest first; \(insights.unmeasuredImages) more were not "
                + "(the budget: docs/size-report.md, \"Insights\").\n"
        }
        return text
    }

    /// Each distinct insight once, with every device class it applies to, biggest saving first.
    static func merged(_ insights: SizeInsights) -> [(insight: SizeInsight, devices: [String])] {
        var rows: [(insight: SizeInsight, devices: [String])] = []
        var index: [String: Int] = [:]
        for device in insights.devices {
            for insight in device.insights {
                let key = "\(insight.kind.rawValue)\u{0}\(insight.saving)\u{0}\(insight.files.joined(separator: "\u{0}"))"
                if let known = index[key] {
                    rows[known].devices.append(device.device)
                } else {
                    index[key] = rows.count
                    rows.append((insight, [device.device]))
                }
            }
        }
        let kinds = SizeInsight.Kind.allCases
        return rows.enumerated().sorted { a, b in
            (-a.element.insight.saving, kinds.firstIndex(of: a.element.insight.kind)!, a.offset)
                < (-b.element.insight.saving, kinds.firstIndex(of: b.element.insight.kind)!, b.offset)
        }.map(\.element)
    }
}
