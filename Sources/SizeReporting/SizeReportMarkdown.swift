/// `size-report.md`: a short summary for a CI job summary or a pull-request comment: one line per
/// device class with its install and on-demand bytes (and their change against the previous
/// build), then the assets that changed most.
public enum SizeReportMarkdown {
    /// At most this many changed assets are listed; the rest are counted.
    public static let listedChanges = 10

    public static func render(_ report: SizeReport, violations: [BudgetViolation] = [], insights: SizeInsights? = nil) -> String {
        var text = "## Tessera size report: \(plain(report.pipeline))\n\n"
        let changes = Dictionary((report.changes?.devices ?? []).map { ($0.device, $0) }) { first, _ in first }
        text += "| Device | Install | On demand |\n|---|---:|---:|\n"
        for device in report.devices {
            let change = changes[device.device]
            text += "| \(device.name) (`\(device.device)`) | \(ThinningSizeReportText.size(device.install.bytes))"
                + delta(change?.installDelta) + " | \(ThinningSizeReportText.size(device.onDemand.bytes))"
                + delta(change?.onDemandDelta) + " |\n"
        }
        if let update = report.update {
            text += UpdateCostsText.markdown(update, names: Dictionary(report.devices.map { ($0.device, $0.name) }) { first, _ in first })
        }
        if let assets = report.changes?.assets {
            text += "\n"
            if assets.isEmpty {
                text += "No asset changed.\n"
            } else {
                text += "| Asset | Change | Before | After | Δ |\n|---|---|---:|---:|---:|\n"
                for change in assets.prefix(listedChanges) {
                    text += "| \(code(change.asset)) | \(change.kind.rawValue) | \(ThinningSizeReportText.size(change.before)) | "
                        + "\(ThinningSizeReportText.size(change.after)) | \(signed(change.delta)) |\n"
                }
                if assets.count > listedChanges { text += "\n…and \(assets.count - listedChanges) more changed assets.\n" }
            }
        }
        if !violations.isEmpty {
            text += "\n**Over budget:**\n\n"
            for failure in BudgetFailure.group(violations) { text += "- \(plain(failure.message))\n" }
        }
        if let insights { text += InsightsMarkdown.render(insights) }
        return text
    }

    /// A name as a code span that stays on its line and in its table cell, whatever its characters:
    /// a file name holding a newline or `|` must not write lines of its own into a pull-request
    /// comment (issue 54). Control characters are written as `\u{…}` escapes, `|` as `\|` (GitHub
    /// reads it so inside a table's code span), and a name holding backticks gets a longer fence.
    static func code(_ name: String) -> String {
        let text = visible(name).replacingOccurrences(of: "|", with: "\\|")
        var longest = 0, run = 0
        for character in text { run = character == "`" ? run + 1 : 0; longest = max(longest, run) }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = text.hasPrefix("`") || text.hasSuffix("`") ? " " : ""
        return fence + pad + text + pad + fence
    }

    /// Text outside a code span: one line, and no HTML or table syntax of its own.
    static func plain(_ text: String) -> String {
        visible(text).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "|", with: "\\|")
    }

    /// Control characters and line separators as `\u{…}` escapes.
    private static func visible(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func delta(_ value: Int?) -> String {
        guard let value, value != 0 else { return "" }
        return " (\(signed(value)))"
    }

    /// A byte change as the reports write it: `+1.2 MB`, `−519 KB`, `+612 B`, `0` (`ByteText.change`).
    public static func signed(_ bytes: Int) -> String { ByteText.change(bytes) }
}
