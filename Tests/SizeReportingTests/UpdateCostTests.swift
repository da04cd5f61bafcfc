import Delivery
import Foundation
import SizeReporting
import Testing
import TesseraCore

/// What an update from the previous build costs each device class (`UpdateCosts`), judged by the
/// rule the client updates by (`BundleUpdatePlan`), and the `max-update` budget on it.
@Suite("Update costs")
struct UpdateCostTests {
    static func hash(_ text: String) -> ContentHash { ContentHash.of(Array(text.utf8)) }

    /// A build of six images (`a`…`f`, 1,000 bytes each), all in pack `letters` for `phone` and
    /// `a` alone in the same pack for `watch`, plus pack `numbers` (`n`) for both; each entry's
    /// object listed (`a`'s as xz, 600 bytes on the wire). `changed`: `a` has other bytes.
    static func manifest(changed: Bool) -> Manifest {
        let names = ["a", "b", "c", "d", "e", "f", "n"]
        func sha(_ name: String) -> ContentHash { hash(name == "a" && changed ? "a, changed" : name) }
        let assets = names.map { name in
            AssetEntry(name: AssetID(name), variants: [VariantEntry(scale: .x2, path: "variants/\(name)@2x.png", format: .png, width: 10,
                                                                    height: 10, bytes: 1_000, sha256: sha(name), generated: false,
                                                                    source: "\(name)@2x.png")],
                       tags: [name == "n" ? "numbers" : "letters"])
        }
        var manifest = Manifest(pipeline: "p", assets: assets)
        manifest.deviceClasses = ["phone", "watch"].map {
            DeviceClass(id: $0, name: $0.capitalized, platform: .iOS, idiom: $0, scale: 2, memoryGB: 4, graphicsFamily: nil,
                        displayGamut: .sRGB, supportsDarkMode: true)
        }
        manifest.packs = [PackEntry(id: "letters", tags: ["letters"], category: .onDemand, priority: nil),
                          PackEntry(id: "numbers", tags: ["numbers"], category: .onDemand, priority: nil)]
        func bundle(_ pack: String, _ device: String, _ entries: [String], bytes: Int) -> BundleEntry {
            let key = entries.map { sha($0).hex }.joined()
            return BundleEntry(pack: pack, device: device, url: "bundles/\(pack)/\(device).tsb", path: "bundles/\(pack)/\(device).tsb",
                               bytes: bytes, uncompressedSize: entries.count * 1_000, sha256: hash(device + key),
                               entries: entries.map { "assets/\($0)@2x.png" })
        }
        manifest.bundles = [bundle("letters", "phone", ["a", "b", "c", "d", "e", "f"], bytes: 6_200),
                            bundle("letters", "watch", ["a"], bytes: 1_100),
                            bundle("numbers", "phone", ["n"], bytes: 1_100), bundle("numbers", "watch", ["n"], bytes: 1_100)]
        manifest.objects = names.map { name in
            TransferObject(sha256: sha(name), bytes: 1_000, encoding: name == "a" ? .xz : .identity,
                           transferBytes: name == "a" ? 600 : 1_000)
        }.sorted { $0.sha256 < $1.sha256 }
        return manifest
    }

    static let before = ManifestReference(sha256: hash("v1"), bytes: 40_000)
    static let after = ManifestReference(sha256: hash("v2"), bytes: 40_100)

    static func index(patch: Bool) -> UpdateIndex {
        UpdateIndex(manifest: after, compressedBytes: 5_000,
                    patches: patch ? [UpdateIndex.Patch(from: before, path: ManifestPatch.path(from: before.sha256, to: after.sha256),
                                                        bytes: 300)] : [])
    }

    static func costs(index: UpdateIndex?) -> UpdateCosts {
        UpdateCosts.make(current: manifest(changed: true), currentReference: after, index: index,
                         previous: manifest(changed: false), previousReference: before)
    }

    @Test("a device holding every pack: the patch, then the changed entry's object where the rule says objects, the bundle whole where it says whole")
    func deltaAgainstWhole() throws {
        let costs = Self.costs(index: Self.index(patch: true))
        #expect(costs.manifestWay == .patch && costs.manifestBytes == 300 && costs.fullManifestBytes == 40_100)
        let phone = try #require(costs.devices.first { $0.device == "phone" })
        // One of six entries changed: its object (600 B on the wire, + 512 per request) is far under 0.7 of the bundle.
        #expect(phone == UpdateCosts.DeviceUpdate(device: "phone", deltaBytes: 300 + 600, wholeBytes: 40_100 + 6_200, bundles: 1,
                                                  wholeBundles: 0, objects: 1, objectBytes: 600))
        // The watch's bundle is that one entry: every byte of it missing, so whole, as the client would.
        let watch = try #require(costs.devices.first { $0.device == "watch" })
        #expect(watch == UpdateCosts.DeviceUpdate(device: "watch", deltaBytes: 300 + 1_100, wholeBytes: 40_100 + 1_100, bundles: 1,
                                                  wholeBundles: 1, objects: 0, objectBytes: 0))
        // The very decision the client makes (`TesseraClient` asks `BundleUpdatePlan.way` the same).
        let next = Self.manifest(changed: true), previous = Self.manifest(changed: false)
        let installed = Set(previous.bundles.filter { $0.device == "watch" }.map(\.sha256))
        let held = BundleReplacements.heldEntries(of: previous, installed: installed)
        let wanted = BundleReplacements(from: previous, to: next, installed: installed).wanted
        #expect(wanted.map(\.pack) == ["letters"])
        #expect(BundleUpdatePlan.way(for: wanted[0], objects: BundleEntryObjects(next), held: { held[$0] != nil }) == .whole(wanted[0]))
        // A lower share the client may be configured with tips the phone's bundle to whole too.
        let strict = UpdateCosts.make(current: next, currentReference: Self.after, index: Self.index(patch: true), previous: previous,
                                      previousReference: Self.before, share: 0.1)
        #expect(strict.devices.first { $0.device == "phone" }?.deltaBytes == 300 + 6_200)
    }

    @Test("no patch from the held manifest costs manifest.json.xz; no update index, manifest.json; the same manifest, nothing")
    func manifestWays() {
        let compressed = Self.costs(index: Self.index(patch: false))
        #expect(compressed.manifestWay == .compressed && compressed.devices.first?.deltaBytes == 5_000 + 600)
        let whole = Self.costs(index: nil)
        #expect(whole.manifestWay == .whole && whole.devices.first?.deltaBytes == 40_100 + 600)
        let same = UpdateCosts.make(current: Self.manifest(changed: false), currentReference: Self.before, index: nil,
                                    previous: Self.manifest(changed: false), previousReference: Self.before)
        #expect(same.manifestWay == .unchanged && same.devices.allSatisfy { $0.deltaBytes == 0 && $0.bundles == 0 })
    }

    @Test("max-update fails each device class whose delta is over it, and needs a previous build; the text, Markdown and JSON show the costs")
    func budgetAndOutputs() throws {
        var report = SizeReport.make(Self.manifest(changed: true), previous: Self.manifest(changed: false))
        report.update = Self.costs(index: Self.index(patch: true))
        let over = SizeBudget(maxUpdate: 1_000).violations(in: report)
        #expect(over == [BudgetViolation(device: "watch", item: "update from the previous build", budget: "max-update 1 KB",
                                         bytes: 1_400, limit: 1_000)])
        #expect(BudgetFailure.group(over).map(\.message) == ["update from the previous build is 1 KB on watch: over max-update 1 KB"])
        #expect(SizeBudget(maxUpdate: 1_400).violations(in: report).isEmpty)
        #expect(SizeBudget(maxUpdate: 100).violations(in: report).map(\.device) == ["phone", "watch"])
        #expect(throws: TesseraError.self) { try SizeBudget(maxUpdate: 1).check(against: Self.manifest(changed: true), hasPrevious: false) }
        #expect(throws: Never.self) { try SizeBudget(maxUpdate: 1).check(against: Self.manifest(changed: true), hasPrevious: true) }

        let markdown = SizeReportMarkdown.render(report)
        #expect(markdown.contains("Update from the previous build (a device holding every pack of it; manifest: patch (300 B))"), "\(markdown)")
        #expect(markdown.contains("| Phone (`phone`) | 900 B | 46 KB | 1.9% | 1 bundle changed: 1 object (600 B) |"), "\(markdown)")
        #expect(markdown.contains("| Watch (`watch`) | 1 KB | 41 KB | 3.4% | 1 bundle changed: 1 bundle whole |"), "\(markdown)")
        let text = ThinningSizeReportText.render(report)
        #expect(text.contains("\nUpdate from the previous build (manifest: patch (300 B)):\nphone: 900 B by delta, 46 KB whole (1.9%); 1 bundle changed: 1 object (600 B)\n"),
                "\(text)")
        // The model round-trips; a report written before update costs existed still reads.
        let decoded = try JSONDecoder().decode(SizeReport.self, from: JSONEncoder().encode(report))
        #expect(decoded == report)
        var older = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        older["update"] = nil
        #expect(try JSONDecoder().decode(SizeReport.self, from: JSONSerialization.data(withJSONObject: older)).update == nil)
    }
}
