import Decoding
import Delivery
import Downscaling
import Encoding
import FrameTiming
import Packing
import Foundation
import ReadyBitmaps
import Slicing
import TesseraCore
import YAMLReading
import Yams

/// Reads a pipeline YAML file strictly: unknown stages, unknown keys and wrongly typed values are
/// errors that name the file, the line and the key.
public enum PipelineFileReader {
    static let stageNames = ["decode", "variants", "downscale", "encode", "decompress", "timing", "slice", "pack",
                             "manifest"]

    public static func read(path: String) throws(TesseraError) -> PipelineDefinition {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.configuration, file: path, stage: .pipeline, reason: "cannot read the pipeline file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TesseraError(.configuration, file: path, stage: .pipeline, reason: "the pipeline file is not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(TesseraError) -> PipelineDefinition {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw TesseraError(.configuration, file: file, stage: .pipeline, reason: "the pipeline file is empty")
            }
            root = node
        } catch let error as TesseraError {
            throw error
        } catch let error as YamlError {
            let (location, problem) = Self.locate(error, file: file)
            throw TesseraError(.configuration, file: location, stage: .pipeline, reason: "not valid YAML: \(problem)")
        } catch {
            throw TesseraError(.configuration, file: file, stage: .pipeline, reason: "not valid YAML: \(error)")
        }
        let top = try YAMLValue(node: root, file: file, keyPath: "").mapping(allowedKeys: ["version", "name", "stages"])
        guard let version = top["version"] else {
            throw YAMLValue(node: root, file: file, keyPath: "version").error("missing; this Tessera reads version 1")
        }
        guard try version.int(in: 1...Int.max) == 1 else {
            throw version.error("this Tessera reads pipeline version 1")
        }
        guard let nameValue = top["name"] else {
            throw YAMLValue(node: root, file: file, keyPath: "name").error("missing; give the pipeline a name")
        }
        var definition = PipelineDefinition(name: try nameValue.string(), downscale: nil)
        guard let stagesValue = top["stages"] else {
            throw YAMLValue(node: root, file: file, keyPath: "stages").error("missing; list the stages to run")
        }
        let stages = try stagesValue.mapping(allowedKeys: stageNames)
        for required in ["decode", "manifest"] where stages[required] == nil {
            throw stagesValue.error("the '\(required)' stage is required")
        }
        if let pack = stages["pack"], stages["slice"] == nil {
            throw pack.error("the pack stage needs a slice stage naming the device classes to pack for")
        }
        for (name, value) in stages {
            switch name {
            case "decode": definition.decode = try readDecode(value)
            case "variants": definition.variants = try readVariants(value)
            case "downscale": definition.downscale = try readDownscale(value)
            case "encode": definition.encode = try readEncode(value)
            case "decompress": definition.decompress = try readDecompress(value)
            case "timing": definition.timing = try readTiming(value)
            case "slice": definition.slice = try readSlice(value)
            case "pack": definition.pack = try readPack(value)
            case "manifest": definition.manifest = try readManifest(value)
            default: throw value.error("unknown stage")
            }
        }
        return definition
    }

    /// A stage given as `decode:` with nothing after it takes its defaults.
    private static func options(_ value: YAMLValue, allowed: [String]) throws(TesseraError) -> [String: YAMLValue] {
        if case .scalar(let scalar) = value.node, scalar.string.isEmpty || scalar.tag.description.hasSuffix("null") {
            return [:]
        }
        return try value.mapping(allowedKeys: allowed)
    }

    private static func readDecode(_ value: YAMLValue) throws(TesseraError) -> DecodeStageOptions {
        var result = DecodeStageOptions()
        let entries = try options(value, allowed: ["max-pixels"])
        if let limit = entries["max-pixels"] { result.maxPixels = try limit.int(in: 1...Int(Int32.max) * 8) }
        return result
    }

    private static func readVariants(_ value: YAMLValue) throws(TesseraError) -> VariantStageOptions {
        var result = VariantStageOptions()
        let entries = try options(value, allowed: ["scales", "unsuffixed-scale"])
        if let scales = entries["scales"] {
            var parsed: [DisplayScale] = []
            for item in try scales.list() { parsed.append(try scale(item)) }
            guard !parsed.isEmpty else { throw scales.error("list at least one scale") }
            result.scales = parsed
        }
        if let unsuffixed = entries["unsuffixed-scale"] { result.unsuffixedScale = try scale(unsuffixed) }
        return result
    }

    private static func scale(_ value: YAMLValue) throws(TesseraError) -> DisplayScale {
        let text = try value.string()
        guard let scale = DisplayScale(parsing: text) else { throw value.error("'\(text)' is not a scale: use 1x, 2x, 3x or 4x") }
        return scale
    }

    private static func readDownscale(_ value: YAMLValue) throws(TesseraError) -> DownscaleStageOptions {
        var result = DownscaleStageOptions()
        let entries = try options(value, allowed: ["filter", "linear-light", "memory-budget"])
        if let filter = entries["filter"] {
            result.filter = try filter.oneOf(ResamplingFilter.allCases.map { ($0.rawValue, $0) })
        }
        if let linear = entries["linear-light"] { result.linearLight = try linear.bool() }
        if let budget = entries["memory-budget"] { result.memoryBudget = max(1, try budget.byteCount().bytes) }
        return result
    }

    private static func readEncode(_ value: YAMLValue) throws(TesseraError) -> EncodeStageOptions {
        var result = EncodeStageOptions()
        let entries = try options(value, allowed: ["png-effort", "png-compression-level", "png-palette", "png-palette-quality",
                                                   "png-palette-speed", "jpeg-quality", "jpeg-progressive",
                                                   "jpeg-chroma", "webp-quality"])
        if let quality = entries["webp-quality"] { result.webp.quality = try quality.int(in: 0...100) }
        let effort = try entries["png-effort"]?.oneOf(PNGEffort.allCases.map { ($0.rawValue, $0) }) ?? .default
        result.png = PNGEncoder(effort: effort, compressionLevel: try entries["png-compression-level"]?.int(in: 0...12),
                                palette: try readPalette(entries))
        if let quality = entries["jpeg-quality"] { result.jpeg.quality = try quality.int(in: 1...100) }
        if let progressive = entries["jpeg-progressive"] { result.jpeg.progressive = try progressive.bool() }
        if let chroma = entries["jpeg-chroma"] {
            result.jpeg.chroma = try chroma.oneOf(JPEGEncoder.ChromaSubsampling.allCases.map { ($0.rawValue, $0) })
        }
        return result
    }

    /// `png-palette: off|lossy`, `png-palette-quality: MIN-MAX`, `png-palette-speed: 1-10`.
    private static func readPalette(_ entries: [String: YAMLValue]) throws(TesseraError) -> PNGPalette {
        var palette = PNGPalette()
        if let mode = entries["png-palette"] {
            palette.mode = try mode.oneOf(PNGPalette.Mode.allCases.map { ($0.rawValue, $0) })
            if palette.mode == .lossy, let reason = PNGPalette.unavailableReason { throw mode.error("'lossy': \(reason)") }
        }
        if let quality = entries["png-palette-quality"] {
            let text = try quality.string()
            guard let range = PNGPalette.quality(parsing: text) else {
                throw quality.error("'\(text)' is not a quality range: use \(PNGPalette.qualityUsage)")
            }
            palette.quality = range
        }
        if let speed = entries["png-palette-speed"] { palette.speed = try speed.int(in: PNGPalette.speeds) }
        return palette
    }

    private static func readDecompress(_ value: YAMLValue) throws(TesseraError) -> DecompressStageOptions {
        var result = DecompressStageOptions()
        let entries = try options(value, allowed: ["include", "all", "animated", "pixel-format", "max-bytes"])
        if let include = entries["include"] {
            var globs: [String] = []
            for item in try include.list() { globs.append(try item.string()) }
            result.policy.include = globs
            // Naming assets turns "every asset" off unless it is asked for as well.
            result.policy.all = false
        }
        if let all = entries["all"] { result.policy.all = try all.bool() }
        if let animated = entries["animated"] { result.policy.includeAnimated = try animated.bool() }
        if let layout = entries["pixel-format"] {
            result.layout = try layout.oneOf(ReadyPixelLayout.allCases.map { ($0.rawValue, $0) })
        }
        if let budget = entries["max-bytes"] { result.policy.maxDecodedBytes = try budget.byteCount().bytes }
        return result
    }

    private static func readTiming(_ value: YAMLValue) throws(TesseraError) -> TimingStageOptions {
        var result = TimingStageOptions()
        let entries = try options(value, allowed: ["clamp", "max-slots", "sub-images"])
        if let clamp = entries["clamp"] {
            let text = try clamp.string()
            guard let policy = ClampPolicy(parsing: text) else {
                throw clamp.error("'\(text)' is not a clamp policy: \(ClampPolicy.usage)")
            }
            result.clamp = policy
        }
        if let slots = entries["max-slots"] { result.maxSlots = try slots.int(in: 1...FrameTiming.maxSlotsLimit) }
        if let subImages = entries["sub-images"] {
            result.subImages = try subImages.oneOf(SubImagePolicy.allCases.map { ($0.rawValue, $0) })
        }
        return result
    }

    private static func readPack(_ value: YAMLValue) throws(TesseraError) -> PackStageOptions {
        var result = PackStageOptions()
        let entries = try options(value, allowed: ["initial-install", "prefetch-order", "base-url", "min-saving",
                                                   "pack-limit", "compress", "xz-level"])
        func strings(_ key: String) throws(TesseraError) -> [String]? {
            guard let list = entries[key] else { return nil }
            var values: [String] = []
            for item in try list.list() { values.append(try item.string()) }
            return values
        }
        if let tags = try strings("initial-install") { result.initialInstallTags = tags }
        if let order = try strings("prefetch-order") {
            guard Set(order).count == order.count else { throw entries["prefetch-order"]!.error("a tag is listed twice") }
            result.prefetchOrder = order
        }
        if let url = entries["base-url"] { result.baseURL = try url.string() }
        if let saving = entries["min-saving"] {
            guard let value = Double(try saving.string()), (0...1).contains(value) else {
                throw saving.error("expected a fraction between 0 and 1, like 0.05")
            }
            result.minimumSaving = value
        }
        if let limit = entries["pack-limit"] { result.packLimit = try limit.byteCount().bytes }
        if let compress = entries["compress"] {
            let text = try compress.string()
            guard let mode = CompressionMode(rawValue: text) else {
                throw compress.error("'\(text)' is not a compression mode: use auto, always or never")
            }
            result.compression = mode
        }
        if let level = entries["xz-level"] { result.compressionLevel = UInt32(try level.int(in: 0...9)) }
        return result
    }

    private static func readSlice(_ value: YAMLValue) throws(TesseraError) -> SliceStageOptions {
        var result = SliceStageOptions()
        let entries = try options(value, allowed: ["devices"])
        if let devices = entries["devices"] {
            var ids: [String] = []
            for item in try devices.list() {
                let id = try item.string()
                do {
                    _ = try KnownDevices.device(id)
                } catch {
                    throw item.error(error.reason)
                }
                ids.append(id)
            }
            result.devices = ids
        }
        return result
    }

    private static func readManifest(_ value: YAMLValue) throws(TesseraError) -> ManifestStageOptions {
        var result = ManifestStageOptions()
        let entries = try options(value, allowed: ["file"])
        if let file = entries["file"] {
            let name = try file.string()
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
                throw file.error("'\(name)' must be a plain file name inside the output folder")
            }
            result.file = name
        }
        return result
    }

    /// `file:line:column` and libyaml's own words for a syntax error; for a duplicated key, the
    /// line of the repeat (Yams gives only the first occurrence and the whole document).
    private static func locate(_ error: YamlError, file: String) -> (String, String) {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
             .composer(_, let problem, let mark, _):
            return ("\(file):\(mark.line):\(mark.column)", problem)
        case .duplicatedKeysInMapping(let keys, let context):
            let key = keys.first ?? ""
            let first = context.mark
            guard let repeated = YAMLDuplicateKey.repeatPosition(of: key, firstAt: first, in: context.text) else {
                return ("\(file):\(first.line):\(first.column)", "the key '\(key)' appears more than once in one mapping")
            }
            return ("\(file):\(repeated.line):\(repeated.column)",
                    "the key '\(key)' appears twice (first at line \(first.line))")
        default:
            return (file, String(describing: error))
        }
    }
}
