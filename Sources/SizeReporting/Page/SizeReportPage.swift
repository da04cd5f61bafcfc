import Delivery

/// `size-report.html`: one self-contained page (no request leaves it: a Content-Security-Policy
/// allows only its own inline style and script and `data:` pictures) showing each device class's
/// install and on-demand packs, where the bytes go, the biggest assets with thumbnails, what
/// changed against a previous build, budgets gone over, and the build's warnings and failures.
///
/// Long lists are paged by the page's script from compact embedded data, so a build of thousands
/// of assets stays a few megabytes and opens without jank (docs/size-report.md).
public enum SizeReportPage {
    public static let fileName = "size-report.html"
    /// Each device class's biggest assets that get a thumbnail.
    public static let picturedPerDevice = 60
    /// The biggest changes that get before and after thumbnails.
    public static let picturedChanges = 100

    public static func render(_ report: SizeReport, violations: [BudgetViolation], problems: [ReportProblem]?,
                              current: ReportedBuild, previous: ReportedBuild?,
                              thumbnails: (any ThumbnailMaking)?, insights: SizeInsights? = nil) -> String {
        var pictured = Set<String>()
        for device in report.devices { pictured.formUnion(device.assets.prefix(picturedPerDevice).map(\.asset)) }
        let changes = report.changes?.assets ?? []
        let changedNames = Set(changes.prefix(picturedChanges).map(\.asset))
        let pictures = ReportPictures(current: current, previous: previous, currentAssets: pictured.union(changedNames),
                                      previousAssets: changedNames, maker: thumbnails)
        let data = data(report, violations: violations, problems: problems, pictures: pictures)
        return page(report, violations: violations, data: data, insights: insights)
    }

    /// The variants of the previous build the page pictures: the biggest changes' (at most
    /// `picturedChanges`), each by the variant `ReportPictures` would choose for a thumbnail of
    /// `side` pixels. What a report made against a server fetches (`PreviousPictures`).
    /// `available`: the variants that can be had (a server holds only the packed ones).
    public static func previousPictures(_ report: SizeReport, previous: Manifest, side: Int,
                                        available: (VariantEntry) -> Bool = { _ in true }) -> [VariantEntry] {
        let changed = Set((report.changes?.assets ?? []).prefix(picturedChanges).filter { $0.kind != .added }.map(\.asset))
        return previous.assets.filter { changed.contains($0.name.name) }.compactMap {
            ReportPictures.picture(of: $0, side: side, among: available)
        }
    }

    /// The embedded data: names and packs once, then rows of numbers that refer to them
    /// (the page's script reads it; its shape is documented there).
    static func data(_ report: SizeReport, violations: [BudgetViolation], problems: [ReportProblem]?,
                     pictures: ReportPictures) -> String {
        var names: [String] = []
        var nameIndex: [String: Int] = [:]
        func index(_ name: String) -> Int {
            if let known = nameIndex[name] { return known }
            nameIndex[name] = names.count
            names.append(name)
            return names.count - 1
        }
        var packs: [PackSize] = []
        var packIndex: [String: Int] = [:]
        for device in report.devices {
            for pack in device.packs where packIndex[pack.pack] == nil {
                packIndex[pack.pack] = packs.count
                packs.append(pack)
            }
            for asset in device.assets { _ = index(asset.asset) }
        }
        for change in report.changes?.assets ?? [] { _ = index(change.asset) }

        var json = CompactJSON()
        json.raw("{\"pipeline\":")
        json.string(report.pipeline)
        json.raw(",\"names\":")
        json.array(names) { $0.string($1) }
        json.raw(",\"pictures\":")
        json.array(pictures.urls) { $0.string($1) }
        json.raw(",\"picture\":")
        json.array(names) { $0.number(pictures.current[$1] ?? -1) }
        json.raw(",\"packs\":")
        json.array(packs) { json, pack in
            json.raw("[")
            json.string(pack.pack)
            json.raw(",")
            json.array(pack.tags) { $0.string($1) }
            json.raw(",")
            json.string(pack.category.rawValue)
            json.raw("]")
        }
        json.raw(",\"devices\":")
        json.array(report.devices) { json, device in
            json.raw("[")
            json.string(device.device)
            json.raw(",")
            json.string(device.name)
            json.raw(",[\(device.install.bytes),\(device.install.unpacked),\(device.onDemand.bytes),\(device.onDemand.unpacked)],")
            json.array(device.packs) { json, pack in
                json.raw("[\(packIndex[pack.pack]!),\(pack.size.bytes),\(pack.size.unpacked)]")
            }
            json.raw(",")
            json.array(device.assets) { json, asset in
                json.raw("[\(nameIndex[asset.asset]!),\(asset.bytes),\(packIndex[asset.pack] ?? -1),\(asset.files.count)]")
            }
            json.raw("]")
        }
        json.raw(",\"changes\":")
        if let changes = report.changes {
            json.raw("{\"devices\":")
            json.array(changes.devices) { json, device in
                json.raw("[")
                json.string(device.device)
                json.raw(",\(device.installBefore.bytes),\(device.install.bytes),\(device.onDemandBefore.bytes),\(device.onDemand.bytes)]")
            }
            json.raw(",\"assets\":")
            json.array(changes.assets) { json, change in
                json.raw("[\(nameIndex[change.asset]!),")
                json.string(change.kind.rawValue)
                let before = pictures.previous[change.asset] ?? -1, after = pictures.current[change.asset] ?? -1
                json.raw(",\(change.before),\(change.after),\(change.kind == .added ? -1 : before),\(change.kind == .removed ? -1 : after)]")
            }
            json.raw("}")
        } else {
            json.raw("null")
        }
        json.raw(",\"overBudget\":")
        json.array(BudgetFailure.group(violations)) { json, failure in json.string(failure.message) }
        json.raw(",\"problems\":")
        guard let problems else {
            json.raw("null}")
            return json.text
        }
        json.array(problems) { json, problem in
            json.raw("[\(problem.isError ? 1 : 0),")
            json.string(problem.file)
            json.raw(",")
            json.string(problem.stage)
            json.raw(",")
            json.string(problem.reason)
            json.raw("]")
        }
        json.raw("}")
        return json.text
    }

    /// The page around the data. Everything a reader needs first (budgets, the per-device table)
    /// is written as HTML, so it reads even with scripts off; the rest is drawn by the script.
    static func page(_ report: SizeReport, violations: [BudgetViolation], data: String, insights: SizeInsights? = nil) -> String {
        var html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
        <meta name="color-scheme" content="light dark">
        <title>Size report: \(escape(report.pipeline))</title>
        <style>\(SizeReportPageStyle.css)</style>
        </head>
        <body>
        <a class="skip" href="#device-section">Skip to one device class</a>
        <header><h1>Size report: \(escape(report.pipeline))</h1>
        <p>\(report.devices.count) device classes\(report.changes == nil ? "" : ", compared with a previous build")</p></header>
        <main>

        """
        if !violations.isEmpty {
            html += "<section id=\"budget\" class=\"alert\" aria-labelledby=\"budget-title\"><h2 id=\"budget-title\">Over budget</h2><ul>\n"
            for failure in BudgetFailure.group(violations) { html += "<li>\(escape(failure.message))</li>\n" }
            html += "</ul></section>\n"
        }
        let changes = Dictionary((report.changes?.devices ?? []).map { ($0.device, $0) }) { first, _ in first }
        var overview = """
        <section aria-labelledby="overview-title"><h2 id="overview-title">Device classes</h2>
        <table class="overview"><caption>Bytes each device class downloads: at install, and on demand (as stored, and unpacked)</caption>
        <thead><tr><th scope="col">Device class</th><th scope="col">Install</th><th scope="col">Unpacked</th><th scope="col">On demand</th><th scope="col">Unpacked</th></tr></thead>
        <tbody>

        """
        for device in report.devices {
            let change = changes[device.device]
            overview += "<tr><th scope=\"row\">\(escape(device.name)) <code>\(escape(device.device))</code></th>"
                + "<td>\(ThinningSizeReportText.size(device.install.bytes))\(delta(change?.installDelta))</td>"
                + "<td>\(ThinningSizeReportText.size(device.install.unpacked))</td>"
                + "<td>\(ThinningSizeReportText.size(device.onDemand.bytes))\(delta(change?.onDemandDelta))</td>"
                + "<td>\(ThinningSizeReportText.size(device.onDemand.unpacked))</td></tr>\n"
        }
        overview += "</tbody></table></section>\n"
        overview += """
        <section id="device-section" aria-labelledby="device-title"><h2 id="device-title">One device class</h2>
        <p><label for="device-select">Device class</label> <select id="device-select">
        """
        for (index, device) in report.devices.enumerated() {
            overview += "<option value=\"\(index)\">\(escape(device.name)) (\(escape(device.device)))</option>"
        }
        overview += """
        </select></p>
        <div id="device-view"><noscript>The per-pack and per-asset views need scripts; the tables above and size-report.json have the same figures.</noscript></div>
        </section>

        """
        if let insights { overview += InsightsPageSection.html(insights, report: report) }
        var changeSection = """
        <section id="changes-section" aria-labelledby="changes-title"><h2 id="changes-title">Changes against the previous build</h2><div id="changes-view"></div></section>

        """
        if let update = report.update { changeSection += UpdateCostsPageSection.html(update, report: report) }
        // Made against a previous build, the page opens on what changed (each device's totals
        // before and after, then the changed assets with their pictures): what a reviewer opens
        // it for. The per-device lists come after.
        html += report.changes == nil ? overview + changeSection : changeSection + overview
        html += """

        <section id="problems-section" aria-labelledby="problems-title"><h2 id="problems-title">Warnings and failures</h2><div id="problems-view"></div></section>
        </main>
        <script type="application/json" id="report-data">\(data)</script>
        <script>\(SizeReportPageScript.javaScript)</script>
        </body>
        </html>

        """
        return html
    }

    private static func delta(_ value: Int?) -> String {
        guard let value, value != 0 else { return "" }
        return " <span class=\"\(value > 0 ? "grew" : "shrank")\">(\(SizeReportMarkdown.signed(value)))</span>"
    }

    /// Text made safe for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
