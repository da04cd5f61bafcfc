/// `size-report.md`: a short summary for a CI job summary or a pull-request comment: one line per
/// device class with its install and on-demand bytes (and their change against the previous
/// build), then the assets that changed most.
public enum SizeReportMarkdown {
    /// At most this many changed assets are listed; the rest are counted.
    public static let listedChanges = 10

    public static func render(_ report: SizeReport, violations: [BudgetViolation] = []) -> String {
        var text = "## Tessera size report: \(report.pipeline)\n\n"
        let changes = Dictionary((report.changes?.devices ?? []).map { ($0.device, $0) }) { first, _ in first }
        text += "| Device | Install | On demand |\n|---|---:|---:|\n"
        for device in report.devices {
            let change = changes[device.device]
            text += "| \(device.name) (`\(device.device)`) | \(ThinningSizeReportText.size(device.install.bytes))"
                + delta(change?.installDelta) + " | \(ThinningSizeReportText.size(device.onDemand.bytes))"
                + delta(change?.onDemandDelta) + " |\n"
        }
        if let assets = report.changes?.assets {
            text += "\n"
            if assets.isEmpty {
                text += "No asset changed.\n"
            } else {
                text += "| Asset | Change | Before | After | Δ |\n|---|---|---:|---:|---:|\n"
                for change in assets.prefix(listedChanges) {
                    text += "| `\(change.asset)` | \(change.kind.rawValue) | \(ThinningSizeReportText.size(change.before)) | "
                        + "\(ThinningSizeReportText.size(change.after)) | \(signed(change.delta)) |\n"
                }
                if assets.count > listedChanges { text += "\n…and \(assets.count - listedChanges) more changed assets.\n" }
            }
        }
        if !violations.isEmpty {
            text += "\n**Over budget:**\n\n"
            for violation in violations { text += "- \(violation.message)\n" }
        }
        return text
    }

    private static func delta(_ value: Int?) -> String {
        guard let value, value != 0 else { return "" }
        return " (\(signed(value)))"
    }

    /// A byte change as the reports write it: `+1.2 MB`, `−519 KB`, `+612 B`, `0`. Changes under
    /// 1 KB are in bytes: "+1 KB" would hide that 14 KB became 14 KB.
    public static func signed(_ bytes: Int) -> String {
        bytes == 0 ? "0" : (bytes > 0 ? "+" : "−") + (abs(bytes) < 1000 ? "\(abs(bytes)) B" : ThinningSizeReportText.size(abs(bytes)))
    }
}
