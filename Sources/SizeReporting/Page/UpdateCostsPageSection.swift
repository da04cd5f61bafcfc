/// The page's section on what an update from the previous build costs (`UpdateCosts`): one table
/// row per device class, drawn on the server side as the overview is, so it reads without scripts.
enum UpdateCostsPageSection {
    static func html(_ costs: UpdateCosts, report: SizeReport) -> String {
        let names = Dictionary(report.devices.map { ($0.device, $0.name) }) { first, _ in first }
        var html = """
        <section id="update-section" aria-labelledby="update-title"><h2 id="update-title">Update from the previous build</h2>
        <table class="overview"><caption>What a device holding every pack of the previous build downloads to update (manifest: \(SizeReportPage.escape(UpdateCostsText.manifest(costs)))), against every changed bundle whole with the full manifest</caption>
        <thead><tr><th scope="col">Device class</th><th scope="col">Delta</th><th scope="col">Whole bundles</th><th scope="col">Share</th><th scope="col">What</th></tr></thead>
        <tbody>

        """
        for device in costs.devices {
            html += "<tr><th scope=\"row\">\(SizeReportPage.escape(names[device.device] ?? device.device)) <code>\(SizeReportPage.escape(device.device))</code></th>"
                + "<td>\(ByteText.size(device.deltaBytes))</td><td>\(ByteText.size(device.wholeBytes))</td>"
                + "<td>\(UpdateCostsText.share(device))</td><td>\(SizeReportPage.escape(UpdateCostsText.parts(device)))</td></tr>\n"
        }
        return html + "</tbody></table></section>\n"
    }
}
