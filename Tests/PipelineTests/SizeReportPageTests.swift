import Foundation
import SizeReporting
import TestServers
import TestSupport
import Testing

/// `size-report.html` opened in Debian's Chromium, headless, as a person would (issue 27): no
/// console error, no request leaves the page, the pictures decode, a diff's changed asset shows
/// its delta, long lists page, and the keyboard reaches the controls.
@Suite("Size report page in a browser", .serialized)
struct SizeReportPageTests {
    /// A JavaScript string literal.
    private func literal(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    /// The cells of the change row for `asset`, as text.
    private func changeRow(_ asset: String) -> String {
        "(() => { const row = document.querySelector('#changes-view tr[data-asset=' + JSON.stringify(\(literal(asset))) + ']');"
            + " return row ? Array.from(row.cells).map(cell => cell.textContent) : null; })()"
    }

    @Test("a two-build diff: no console error, no request, pictures decode, the changed asset is listed with its delta")
    func diffInChromium() async throws {
        let workspace = try Workspace()
        let diff = try await SizeReportBuilds.twoBuilds(workspace)
        let report = "\(workspace.root)/report"
        let result = try await TesseraProcess.run(["report", "\(workspace.root)/after", "--against", "\(workspace.root)/before",
                                             "--output", report])
        #expect(result.status == 0, "\(result.stderr)")
        let page = "\(report)/\(SizeReportPage.fileName)"
        let document = try JSONDecoder().decode(ReportDocument.self, from: Data(contentsOf: URL(fileURLWithPath: "\(report)/size-report.json")))
        let changes = try #require(document.report.changes)
        let changed = try #require(changes.assets.first { $0.asset == diff.changed })

        let secondDevice = try #require(document.report.devices.dropFirst().first)
        let visit = try HeadlessBrowser.open(page, evaluate: [
            ("changed", changeRow(diff.changed)),
            ("added", changeRow(diff.added)),
            ("removed", changeRow(diff.removed)),
            ("secondDevice", """
                (() => { const select = document.getElementById('device-select'); select.value = '1';
                select.dispatchEvent(new Event('change')); return document.querySelector('#device-view p').textContent; })()
                """),
        ], tabs: 6, screenshot: "\(workspace.root)/light.png", darkScreenshot: "\(workspace.root)/dark.png")

        #expect(visit.console.isEmpty, "\(visit.console)")
        #expect(visit.requests.isEmpty, "\(visit.requests)")
        #expect(!visit.images.isEmpty && visit.images.allSatisfy(\.decoded), "\(visit.images)")
        let alts = Set(visit.images.map(\.alt))
        #expect(alts.contains("Before picture of \(diff.changed)") && alts.contains("After picture of \(diff.changed)"), "\(alts)")
        #expect(alts.contains("After picture of \(diff.added)") && alts.contains("Before picture of \(diff.removed)"))
        // Cells: before picture, after picture, name, kind, before, after, delta.
        let row = try #require(visit.evals["changed"], "the changed asset is listed")
        guard case .array(let cells) = row else { Issue.record("no row for \(diff.changed): \(row)"); return }
        #expect(cells.compactMap(\.string).suffix(5) == [diff.changed, changed.kind.rawValue,
                                                         ThinningSizeReportText.size(changed.before),
                                                         ThinningSizeReportText.size(changed.after),
                                                         SizeReportMarkdown.signed(changed.delta)])
        #expect(visit.evals["added"] != .null && visit.evals["removed"] != .null)
        #expect(visit.evals["secondDevice"]?.string?.hasPrefix("Install: \(ThinningSizeReportText.size(secondDevice.install.bytes)) (") == true)
        // Tab reaches the device menu and the asset search.
        #expect(visit.focus.contains { $0.hasPrefix("select#device-select") } && visit.focus.contains { $0.hasPrefix("input#asset-filter") },
                "\(visit.focus)")
        for screenshot in ["light.png", "dark.png"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/\(screenshot)"))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && bytes.count > 10_000)
        }
        // The same build and previous build give the same page, byte for byte.
        let again = try await TesseraProcess.run(["report", "\(workspace.root)/after", "--against", "\(workspace.root)/before",
                                            "--output", "\(workspace.root)/again"])
        #expect(again.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: page))
                == Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/again/\(SizeReportPage.fileName)")))
    }

    @Test("against a tessera serve channel: the page opens on the changes and shows before pictures fetched by ranges of the server's bundles")
    func againstAServerChannel() async throws {
        let workspace = try Workspace()
        let diff = try await SizeReportBuilds.twoBuilds(workspace)
        let server = try ServeProcess(folder: "\(workspace.root)/serve")
        defer { server.stop() }
        let published = try await ServeProcess.run(["publish", "\(workspace.root)/before", "--server", server.url,
                                              "--token-file", server.tokenFile, "--channel", "main"])
        #expect(published.status == 0, "\(published.stderr)")
        let report = "\(workspace.root)/report"
        let result = try await TesseraProcess.run(["report", "\(workspace.root)/after", "--against", "\(server.url)/v1/channels/main",
                                             "--output", report])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let visit = try HeadlessBrowser.open("\(report)/\(SizeReportPage.fileName)", evaluate: [
            ("first", "document.querySelector('main > section:not(.alert)').id"),
        ], tabs: 0, screenshot: "\(workspace.root)/against-server.png")
        #expect(visit.console.isEmpty, "\(visit.console)")
        #expect(visit.requests.isEmpty, "\(visit.requests)")
        #expect(visit.evals["first"]?.string == "changes-section")
        #expect(!visit.images.isEmpty && visit.images.allSatisfy(\.decoded), "\(visit.images)")
        let alts = Set(visit.images.map(\.alt))
        #expect(alts.contains("Before picture of \(diff.changed)") && alts.contains("Before picture of \(diff.removed)"), "\(alts)")
        // Made again, the same page byte for byte; and nothing left in the temporary folder.
        let again = try await TesseraProcess.run(["report", "\(workspace.root)/after", "--against", "\(server.url)/v1/channels/main",
                                            "--output", "\(workspace.root)/again"])
        #expect(again.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(report)/\(SizeReportPage.fileName)"))
                == Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/again/\(SizeReportPage.fileName)")))
        if let keep = ProcessInfo.processInfo.environment["TESSERA_KEEP_SCREENSHOT"] {
            try? FileManager.default.copyItem(atPath: "\(workspace.root)/against-server.png", toPath: keep)
        }
    }

    @Test("5,000 assets: under 5 MB, 50 rows a page, Next and the search work, and a name with markup stays text")
    func longListsPage() throws {
        let workspace = try Workspace()
        let hostile = "<img src=x onerror=alert(1)>"
        var assets = (0..<5_000).map { index in
            AssetSize(asset: String(format: "Assets/group-%02d/asset-%05d", index % 40, index), bytes: 100_000 - index,
                      files: ["variants/a-\(index)@2x.png", "variants/a-\(index)@3x.png"], pack: index % 3 == 0 ? "base" : "pack-\(index % 7)")
        }
        assets.append(AssetSize(asset: hostile, bytes: 1, files: ["variants/x.png"], pack: "base"))
        let packs = [PackSize(pack: "base", tags: [], category: .initialInstall, size: ByteTotals(bytes: 200_000_000, unpacked: 210_000_000))]
            + (1..<7).map { PackSize(pack: "pack-\($0)", tags: ["level\($0)"], category: $0 < 3 ? .prefetch : .onDemand,
                                     size: ByteTotals(bytes: 40_000_000, unpacked: 41_000_000)) }
        let devices = ["iPhone18,2", "iPhone17,3", "iPad16,3", "iPhone12,1", "iPad14,1", "iPhone15,2"].map {
            DeviceSizes(device: $0, name: "Device \($0)", install: ByteTotals(bytes: 200_000_000, unpacked: 210_000_000),
                        onDemand: ByteTotals(bytes: 240_000_000, unpacked: 246_000_000), packs: packs, assets: assets)
        }
        let report = SizeReport(pipeline: "large", devices: devices)
        let html = SizeReportPage.render(report, violations: [], problems: [], current: ReportedBuild(manifest: .init(pipeline: "large", assets: []), folder: nil),
                                         previous: nil, thumbnails: nil)
        #expect(html.utf8.count <= 5_000_000, "\(html.utf8.count) bytes")
        #expect(!html.contains(hostile), "the name is data, never markup")
        let page = "\(workspace.root)/large.html"
        try Data(html.utf8).write(to: URL(fileURLWithPath: page))
        let assetTable = "document.querySelectorAll('#device-view table')[1]"
        let visit = try HeadlessBrowser.open(page, evaluate: [
            ("rows", "\(assetTable).tBodies[0].rows.length"),
            ("status", "document.querySelectorAll('#device-view nav.pager')[1].textContent"),
            ("next", """
                (() => { document.querySelectorAll('#device-view nav.pager')[1].querySelectorAll('button')[1].click();
                return \(assetTable).tBodies[0].rows[0].cells[1].textContent; })()
                """),
            ("search", """
                (() => { const box = document.getElementById('asset-filter'); box.value = 'asset-04999';
                box.dispatchEvent(new Event('input')); return \(assetTable).tBodies[0].rows.length; })()
                """),
            ("hostile", """
                (() => { const box = document.getElementById('asset-filter'); box.value = 'onerror';
                box.dispatchEvent(new Event('input')); return \(assetTable).tBodies[0].rows[0].cells[1].textContent; })()
                """),
        ])
        #expect(visit.console.isEmpty, "\(visit.console)")
        #expect(visit.requests.isEmpty, "\(visit.requests)")
        #expect(visit.evals["rows"]?.number == 50)
        #expect(visit.evals["status"]?.string?.contains("Page 1 of 101 (5001 rows)") == true, "\(String(describing: visit.evals["status"]))")
        #expect(visit.evals["next"]?.string == assets[50].asset)
        #expect(visit.evals["search"]?.number == 1)
        #expect(visit.evals["hostile"]?.string == hostile)
    }
}

/// `size-report.json`, as the tests read it.
private struct ReportDocument: Decodable {
    var report: SizeReport
}
