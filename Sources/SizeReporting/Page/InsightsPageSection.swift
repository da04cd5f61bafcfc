/// The page's insights section: per device class (each its own disclosure, the first open), its
/// biggest savings as a table written as HTML, so it reads with scripts off.
enum InsightsPageSection {
    /// Each device class's biggest insights shown; `size-report.json` has them all.
    static let shownPerDevice = 100

    static func html(_ insights: SizeInsights, report: SizeReport) -> String {
        let escape = SizeReportPage.escape
        let size = ThinningSizeReportText.size
        var html = "<section id=\"insights-section\" aria-labelledby=\"insights-title\"><h2 id=\"insights-title\">Insights</h2>\n"
        html += "<p class=\"muted\">What could make each device's download smaller, biggest saving first: identical files shipped "
            + "more than once, and PNGs that Tessera's encoders measured smaller (losslessly, without an opaque alpha channel, "
            + "or as JPEG for a photograph). Savings of one file can overlap."
        if insights.unmeasuredImages > 0 {
            html += " Measured: \(insights.measuredImages) PNGs, the biggest first; \(insights.unmeasuredImages) more were not (the budget)."
        }
        html += "</p>\n"
        let names = Dictionary(report.devices.map { ($0.device, $0.name) }) { first, _ in first }
        for (number, device) in insights.devices.enumerated() {
            let name = names[device.device] ?? device.device
            let total = device.insights.count
            html += "<details\(number == 0 ? " open" : "")><summary>\(escape(name)) (\(escape(device.device))): "
                + "\(total == 1 ? "1 insight" : "\(total) insights")</summary>\n"
            guard total > 0 else {
                html += "<p>Nothing shipped twice, and no measured PNG would be much smaller.</p></details>\n"
                continue
            }
            html += "<table><caption>Insights for \(escape(name)), biggest saving first"
                + (total > shownPerDevice ? " (the first \(shownPerDevice) of \(total))" : "") + "</caption>\n"
                + "<thead><tr><th scope=\"col\">Asset</th><th scope=\"col\" class=\"name\">Insight</th>"
                + "<th scope=\"col\" class=\"name\">Files</th><th scope=\"col\">Saving</th></tr></thead><tbody>\n"
            for insight in device.insights.prefix(shownPerDevice) {
                html += "<tr data-insight=\"\(insight.kind.rawValue)\"><td>\(insight.assets.map(escape).joined(separator: ", "))</td>"
                    + "<td class=\"name\">\(escape(insight.advice))</td>"
                    + "<td class=\"name\">\(insight.files.map { "<code>\(escape($0))</code>" }.joined(separator: "<br>"))</td>"
                    + "<td>\(size(insight.saving))</td></tr>\n"
            }
            html += "</tbody></table></details>\n"
        }
        return html + "</section>\n"
    }
}
