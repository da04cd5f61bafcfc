import Delivery
import Foundation
import Pipeline
import SizeReporting
import TestServers
import TestSupport
import Testing
import TesseraCore

/// What an update costs, from real builds on the command line (`docs/size-report.md`): the
/// sample catalog built, one image changed and built again `--against` it, then
/// `tessera report --against` with `--max-update`, and the pipeline's `report` stage with
/// `against:` and `max-update:`.
@Suite("Update costs on the command line", .serialized)
struct UpdateCostCommandTests {
    let pipeline = "\(Workspace.packageRoot)/Pipelines/samples.yml"

    @Test("report --against shows each device's delta beside the whole-bundle path; --max-update exits 3 naming each device over it, 0 within it; the report stage's max-update too")
    func reportsAndBudgetsTheUpdate() async throws {
        let workspace = try Workspace()
        let catalog = "\(workspace.input)/ODR.xcassets"
        try FileManager.default.createDirectory(atPath: workspace.input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(Workspace.packageRoot)/Samples/ODR.xcassets", toPath: catalog)
        try Self.addSetsBesideTheChangedOne(in: catalog)
        let v1 = "\(workspace.root)/v1", v2 = "\(workspace.root)/v2"
        let first = try await TesseraProcess.run(["run", pipeline, "--input", workspace.input, "--output", v1, "--progress", "quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        let image = "\(catalog)/Blue Circle.imageset/Blue Circle.png"
        try Self.withComment(Data(contentsOf: URL(fileURLWithPath: image))).write(to: URL(fileURLWithPath: image))
        let second = try await TesseraProcess.run(["run", pipeline, "--input", workspace.input, "--output", v2, "--against", v1,
                                                   "--progress", "quiet"])
        #expect(second.status == 0, "\(second.stderr)")

        let over = try await TesseraProcess.run(["report", v2, "--against", v1, "--output", "\(workspace.root)/r1", "--no-insights",
                                                 "--max-update", "1B"])
        #expect(over.status == 3, "\(over.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/r1/size-report.json"))) as? [String: Any])
        let update = try #require((document["report"] as? [String: Any])?["update"] as? [String: Any])
        #expect(update["manifestWay"] as? String == "patch", "v2 was built --against v1: its updates.json lists a patch from it")
        let devices = try #require(update["devices"] as? [[String: Any]])
        let changed = devices.filter { ($0["bundles"] as? Int ?? 0) > 0 }
        #expect(!changed.isEmpty)
        for device in changed {
            let delta = try #require(device["deltaBytes"] as? Int), whole = try #require(device["wholeBytes"] as? Int)
            #expect(delta * 5 < whole, "one image of six in its pack, and a patch for the manifest: \(device)")
            #expect(device["objects"] as? Int == 1 && device["wholeBundles"] as? Int == 0, "\(device)")
        }
        for device in devices {
            #expect(over.stderr.contains(device["device"] as! String), "each device over it is named: \(over.stderr)")
        }
        #expect(over.stderr.contains("error: over budget: update from the previous build is ") && over.stderr.contains("over max-update 1 B"),
                "\(over.stderr)")
        #expect(over.stdout.contains("Update from the previous build (a device holding every pack of it; manifest: patch ("))
        let text = try String(contentsOfFile: "\(workspace.root)/r1/App Thinning Size Report.txt", encoding: .utf8)
        #expect(text.contains("\nUpdate from the previous build (manifest: patch ("), "\(text)")
        let page = try String(contentsOfFile: "\(workspace.root)/r1/size-report.html", encoding: .utf8)
        #expect(page.contains("<section id=\"update-section\"") && page.contains("1 bundle changed: 1 object ("))

        let within = try await TesseraProcess.run(["report", v2, "--against", v1, "--output", "\(workspace.root)/r2", "--no-insights",
                                                   "--max-update", "10MB"])
        #expect(within.status == 0, "\(within.stderr)")
        let alone = try await TesseraProcess.run(["report", v2, "--output", "\(workspace.root)/r3", "--no-insights", "--max-update", "10MB"])
        #expect(alone.status == 2 && alone.stderr.contains("max-update needs the previous build"), "\(alone.stderr)")

        // The pipeline's report stage: the same budget, declared as the others are.
        let staged = "\(workspace.root)/staged.yml"
        var definition = try String(contentsOfFile: pipeline, encoding: .utf8)
        definition += "    against: \(v1)\n    max-update: 1B\n    insights: false\n"
        try definition.write(toFile: staged, atomically: true, encoding: .utf8)
        let stage = try await TesseraProcess.run(["run", staged, "--input", workspace.input, "--output", "\(workspace.root)/v3",
                                                  "--against", v1, "--progress", "quiet"])
        #expect(stage.status == 3, "\(stage.stderr)")
        let report = try JSONDecoder().decode(BuildReport.self, from: Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/v3/report.json")))
        let budgets = (report.overBudget ?? []).filter { $0.budget == "max-update 1 B" }
        // The manifest's patch alone is over 1 B: every device class, changed bundles or not.
        #expect(Set(budgets.map(\.device)) == Set(devices.map { $0["device"] as! String }), "\(budgets)")
    }

    /// Five more sets tagged as the changed one, so its pack holds six entries and one changed
    /// image is a sixth of it (as `UpdateBuilds` in the client's tests does).
    static func addSetsBesideTheChangedOne(in catalog: String) throws {
        let contents = try String(contentsOfFile: "\(catalog)/Blue Circle.imageset/Contents.json", encoding: .utf8)
        for (number, source) in ["Red Star.imageset/Red Star.png", "Green Square.imageset/Green Square.png",
                                 "Red Hexagon.imageset/Red Hexagon.png", "Blue Hexagon.imageset/Blue Hexagon.png",
                                 "Green Circle.imageset/Green Circle.png"].enumerated() {
            let set = "\(catalog)/Blue Circle \(number + 2).imageset"
            try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
            try withComment(Data(contentsOf: URL(fileURLWithPath: "\(catalog)/\(source)")))
                .write(to: URL(fileURLWithPath: "\(set)/image.png"))
            try contents.replacingOccurrences(of: "Blue Circle.png", with: "image.png")
                .write(toFile: "\(set)/Contents.json", atomically: true, encoding: .utf8)
        }
    }

    /// The PNG with a 4 KiB text chunk after its header: other bytes, the same pixels.
    static func withComment(_ png: Data) -> Data {
        var generator = SystemRandomNumberGenerator()
        let text = Array("Comment".utf8) + [0] + (0..<4096).map { _ in UInt8.random(in: 0x21...0x7E, using: &generator) }
        let body = Array("tEXt".utf8) + text
        var chunk: [UInt8] = []
        chunk.appendBigEndian(UInt32(text.count))
        chunk += body
        chunk.appendBigEndian(CRC32.checksum(body))
        var bytes = Array(png)
        bytes.insert(contentsOf: chunk, at: 8 + 25)
        return Data(bytes)
    }
}

private extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
