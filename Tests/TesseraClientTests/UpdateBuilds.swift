import Delivery
import Foundation
import Pipeline
import TesseraCore

/// The sample build three times, as a publisher updates it (`docs/updates.md`): v1; v2 with one
/// image changed, built `--against` v1; v3 with nothing changed, built `--against` v2.
enum UpdateBuilds {
    struct Builds: Sendable {
        var v1: URL
        var v2: URL
        var v3: URL
    }

    /// The image v2 changes.
    static let changedImage = "Blue Circle.imageset/Blue Circle.png"

    static let folders: Task<Builds, any Error> = Task {
        let (work, input) = try sampleInput(in: "client-update-samples")
        try addSetsBesideTheChangedOne(in: input.appendingPathComponent("ODR.xcassets"))
        let builds = Builds(v1: work.appendingPathComponent("v1"), v2: work.appendingPathComponent("v2"),
                            v3: work.appendingPathComponent("v3"))
        try await build(input, into: builds.v1, against: nil)
        let image = input.appendingPathComponent("ODR.xcassets").appendingPathComponent(changedImage)
        try withComment(Data(contentsOf: image)).write(to: image)
        try await build(input, into: builds.v2, against: builds.v1)
        try await build(input, into: builds.v3, against: builds.v2)
        return builds
    }

    /// v1 and v2 of the sample catalog with a ready bitmap for every variant (as the build makes
    /// for `decompress` sets): v2 redraws one image with pixels no other set has, so its bitmap
    /// changes too and travels as an `xz` object.
    static let bitmapFolders: Task<(v1: URL, v2: URL), any Error> = Task {
        let (work, input) = try sampleInput(in: "client-update-bitmap-samples")
        let (v1, v2) = (work.appendingPathComponent("v1"), work.appendingPathComponent("v2"))
        try await build(input, into: v1, against: nil, everyBitmap: true)
        let image = input.appendingPathComponent("ODR.xcassets").appendingPathComponent(changedImage)
        try FileManager.default.removeItem(at: image)
        try FileManager.default.copyItem(
            at: SampleBuild.packageRoot.appendingPathComponent(
                "Tests/Fixtures/corpus/xcassets/food-truck/Widgets/Assets.xcassets/IslandCompactIcon.imageset/Food Truck Compact@3x.png"),
            to: image)
        try await build(input, into: v2, against: v1, everyBitmap: true)
        return (v1, v2)
    }

    /// A fresh `.build/NAME` holding `input/ODR.xcassets`, the samples' catalog.
    private static func sampleInput(in name: String) throws -> (work: URL, input: URL) {
        let work = SampleBuild.packageRoot.appendingPathComponent(".build/\(name)")
        try? FileManager.default.removeItem(at: work)
        let input = work.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: SampleBuild.packageRoot.appendingPathComponent("Samples/ODR.xcassets"),
                                         to: input.appendingPathComponent("ODR.xcassets"))
        return (work, input)
    }

    /// Five more sets tagged as the changed one (other images' pixels, bytes of their own), so
    /// its pack holds six entries and one changed image is a sixth of it: the case objects are for.
    private static func addSetsBesideTheChangedOne(in catalog: URL) throws {
        let contents = try String(contentsOf: catalog.appendingPathComponent("Blue Circle.imageset/Contents.json"), encoding: .utf8)
        for (number, source) in ["Red Star.imageset/Red Star.png", "Green Square.imageset/Green Square.png",
                                 "Red Hexagon.imageset/Red Hexagon.png", "Blue Hexagon.imageset/Blue Hexagon.png",
                                 "Green Circle.imageset/Green Circle.png"].enumerated() {
            let set = catalog.appendingPathComponent("Blue Circle \(number + 2).imageset")
            try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
            try withComment(Data(contentsOf: catalog.appendingPathComponent(source))).write(to: set.appendingPathComponent("image.png"))
            try contents.replacingOccurrences(of: "Blue Circle.png", with: "image.png")
                .write(to: set.appendingPathComponent("Contents.json"), atomically: true, encoding: .utf8)
        }
    }

    private static func build(_ input: URL, into output: URL, against previous: URL?, everyBitmap: Bool = false) async throws {
        var definition = try PipelineFileReader.read(path: SampleBuild.packageRoot.appendingPathComponent("Pipelines/samples.yml").path)
        if everyBitmap { definition.decompress = DecompressStageOptions() }
        var request = BuildRequest(definition: definition, inputFolder: input.path, outputFolder: output.path)
        request.previous = try previous.map { location throws(TesseraError) in try PreviousManifests.load(location.path) }
        let outcome = try await PipelineRunner.run(request)
        guard outcome.exitStatus == 0 else { throw ProxyError("the sample build into \(output.path) failed") }
    }

    /// The PNG with a 4 KiB text chunk after its header: other bytes, the same pixels, so the
    /// build copies it as it is (a 1x master) and one variant changes, by about that much.
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

    /// Replaces what `served` holds with `build`'s output folder, as an upload would.
    static func publish(_ build: URL, to served: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: served.path) {
            try FileManager.default.removeItem(at: served.appendingPathComponent(name))
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: build.path) {
            try FileManager.default.copyItem(at: build.appendingPathComponent(name), to: served.appendingPathComponent(name))
        }
    }

    /// Every regular file under `folder`, by path relative to it.
    static func files(under folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = folder.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return files }
        while let name = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: "\(root)/\(name)", isDirectory: &isFolder), !isFolder.boolValue {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(name)"))
            }
        }
        return files
    }
}

private extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
                            UInt8(truncatingIfNeeded: value)])
    }
}
