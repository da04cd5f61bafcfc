import BuildOptions
import BuiltInPipelines
import Encoding
import Delivery
import Foundation
import Slicing
import TesseraCore
import YAMLReading
import Yams

/// Reads a pipeline YAML file strictly: unknown stages, unknown keys and wrongly typed values are
/// errors that name the file, the line and the key. Each stage's keys and their checks come from
/// the option table (`OptionTable`), which the command line reads too.
public enum PipelineFileReader {
    static let stageNames = OptionSection.allCases.map(\.rawValue)

    public static func read(path: String) throws(TesseraError) -> PipelineDefinition {
        var warnings: [String] = []
        return try read(path: path, warnings: &warnings)
    }

    /// Reads the file; `warnings` gets one line per deprecated key, located like an error.
    /// `path` may also be a built-in pipeline's name (`app-thinning`) where no such file exists.
    public static func read(path: String, warnings: inout [String]) throws(TesseraError) -> PipelineDefinition {
        guard let data = FileManager.default.contents(atPath: path) else {
            if !path.contains("/"), let text = BuiltInPipelines.text(named: path) {
                return try parse(text, file: "built-in pipeline \(path)", warnings: &warnings)
            }
            let exists = FileManager.default.fileExists(atPath: path)
            throw TesseraError(.configuration, file: path, stage: .pipeline,
                               reason: exists ? "cannot read the pipeline file"
                                   : "no such pipeline file, and no built-in pipeline of that name (built in: \(BuiltInPipelines.names); `tessera init NAME` writes one to edit)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TesseraError(.configuration, file: path, stage: .pipeline, reason: "the pipeline file is not UTF-8 text")
        }
        return try parse(text, file: path, warnings: &warnings)
    }

    public static func parse(_ text: String, file: String) throws(TesseraError) -> PipelineDefinition {
        var warnings: [String] = []
        return try parse(text, file: file, warnings: &warnings)
    }

    public static func parse(_ text: String, file: String,
                             warnings: inout [String]) throws(TesseraError) -> PipelineDefinition {
        let document: Node?
        do {
            document = try YAMLDocument.compose(text, file: file)
        } catch {
            throw TesseraError(.configuration, file: error.location, stage: .pipeline, reason: "not valid YAML: \(error.problem)")
        }
        guard let root = document else {
            throw TesseraError(.configuration, file: file, stage: .pipeline, reason: "the pipeline file is empty")
        }
        let top = try YAMLValue(node: root, file: file, keyPath: "").mapping(allowedKeys: ["version", "name", "stages", "targets", "app"])
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
        try checkStagesTogether(stages, in: stagesValue)
        if let app = top["app"] {
            definition.app = try readAppSettings(try app.mapping(allowedKeys: appSettingKeys), startingFrom: AppBuildSettings())
        }
        if let targets = top["targets"] {
            guard stages["slice"] != nil else {
                throw targets.error("targets need a slice stage: a target names the device classes its assets are sliced for")
            }
            definition.targets = try readTargets(targets, app: definition.app)
        }
        for (name, value) in stages.sorted(by: { $0.key < $1.key }) {
            guard let section = OptionSection(rawValue: name) else { throw value.error("unknown stage") }
            try read(section, from: try StageEntries(value, section: section, warnings: &warnings), into: &definition)
        }
        return definition
    }

    /// One stage's options into its part of the definition.
    private static func read(_ section: OptionSection, from entries: StageEntries,
                             into definition: inout PipelineDefinition) throws(TesseraError) {
        switch section {
        case .decode: definition.decode = try readDecode(entries)
        case .variants: definition.variants = try readVariants(entries)
        case .rasterize: definition.rasterize = try readRasterize(entries)
        case .downscale: definition.downscale = try readDownscale(entries)
        case .encode: definition.encode = try readEncode(entries)
        case .decompress: definition.decompress = try readDecompress(entries)
        case .timing: definition.timing = try readTiming(entries)
        case .slice: definition.slice = try readSlice(entries)
        case .pack: definition.pack = try readPack(entries)
        case .manifest: definition.manifest = try readManifest(entries)
        case .report: definition.report = try readReport(entries)
        }
    }

    /// The stages a pipeline cannot go without, and those that need another.
    private static func checkStagesTogether(_ stages: [String: YAMLValue], in stagesValue: YAMLValue) throws(TesseraError) {
        for required in [OptionSection.decode, .manifest] where stages[required.rawValue] == nil {
            throw stagesValue.error("the '\(required.rawValue)' stage is required")
        }
        if let pack = stages["pack"], stages["slice"] == nil {
            throw pack.error("the pack stage needs a slice stage naming the device classes to pack for")
        }
        if let report = stages["report"], stages["pack"] == nil {
            throw report.error("the report stage measures the packs: it needs a pack stage")
        }
    }

    /// `targets:`, a list of `{name, input, devices}`; names and inputs must be unique, and an
    /// input is a relative path inside the build's input folder.
    private static func readTargets(_ value: YAMLValue, app: AppBuildSettings) throws(TesseraError) -> [PipelineTarget] {
        var targets: [PipelineTarget] = []
        for item in try value.list() {
            let fields = try item.mapping(allowedKeys: ["name", "input", "devices"] + appSettingKeys)
            guard let name = fields["name"], let input = fields["input"], let devices = fields["devices"] else {
                throw item.error("a target needs a name, an input (a folder or catalog inside --input) and devices")
            }
            var path = try input.string()
            while path.hasSuffix("/") { path.removeLast() }
            if path.hasPrefix("./") { path.removeFirst(2) }
            guard !path.isEmpty, !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
                throw input.error("'\(path)' is not a relative path inside the input folder")
            }
            var ids: [String] = []
            // Identifiers in any case or names (`iPhone 15 Pro`), read as identifiers once, here;
            // one Tessera does not know stays as written, and planning names it.
            for device in try devices.list() {
                let text = try device.string()
                ids.append(KnownDevices.canonicalIdentifier(text) ?? text)
            }
            guard !ids.isEmpty else { throw devices.error("list at least one device class") }
            let own = fields.filter { appSettingKeys.contains($0.key) }
            let target = PipelineTarget(name: try name.string(), input: path, devices: ids,
                                        settings: own.isEmpty ? nil : try readAppSettings(own, startingFrom: app))
            if targets.contains(where: { $0.name == target.name || $0.input == target.input }) {
                throw item.error("target '\(target.name)' (\(target.input)) repeats another target's name or input")
            }
            targets.append(target)
        }
        return targets
    }

    /// The keys of `app:` and of a target that set its build settings, named as Xcode's.
    static let appSettingKeys = ["app-icon", "alternate-app-icons", "include-all-app-icons", "device-family", "keep-in-app",
                                 "deployment-target"]

    /// `app:` or a target's settings: `app-icon` (ASSETCATALOG_COMPILER_APPICON_NAME),
    /// `alternate-app-icons`, `include-all-app-icons`, `device-family` (TARGETED_DEVICE_FAMILY:
    /// `[iphone]`, `[1, 2]` or `"1,2"`), `keep-in-app` (globs over asset names) and
    /// `deployment-target` (`"16.0"` for every platform, or `{ios: "16.0", watchos: "9.0"}`).
    private static func readAppSettings(_ fields: [String: YAMLValue],
                                        startingFrom base: AppBuildSettings) throws(TesseraError) -> AppBuildSettings {
        var settings = base
        func strings(_ value: YAMLValue) throws(TesseraError) -> [String] {
            if let text = try? value.string() {
                return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            var result: [String] = []
            for item in try value.list() {
                if let number = try? item.int(in: 0...Int.max) { result.append(String(number)) } else { result.append(try item.string()) }
            }
            return result
        }
        if let icon = fields["app-icon"] {
            settings.appIcon = try icon.string()
            guard !settings.appIcon.isEmpty else { throw icon.error("name the app icon set (Xcode's default: AppIcon)") }
        }
        if let alternates = fields["alternate-app-icons"] { settings.alternateAppIcons = try strings(alternates) }
        if let all = fields["include-all-app-icons"] { settings.includeAllAppIcons = try all.bool() }
        if let family = fields["device-family"] {
            let values = try strings(family)
            guard let idioms = AppBuildSettings.idioms(parsing: values) else {
                throw family.error("'\(values.joined(separator: ","))' is not a device family: Xcode's numbers (1 iPhone, 2 iPad, 3 TV, 4 watch, 6 Mac, 7 Vision) or idioms (iphone, ipad, tv, watch, mac, vision)")
            }
            settings.deviceFamily = idioms
        }
        if let target = fields["deployment-target"] { settings.deploymentTarget = try readDeploymentTarget(target) }
        if let keep = fields["keep-in-app"] {
            var globs: [String] = []
            for item in try keep.list() { globs.append(try item.string()) }
            settings.keepInApp = globs
        }
        return settings
    }

    /// One version for every Apple platform, or a mapping of platform to version.
    private static func readDeploymentTarget(_ value: YAMLValue) throws(TesseraError) -> DeploymentTarget {
        func major(_ value: YAMLValue) throws(TesseraError) -> Int {
            let text = try value.string()
            guard let major = DeploymentTarget.major(of: text) else {
                throw value.error("'\(text)' is not an OS version (as Xcode writes it: 16.0)")
            }
            return major
        }
        if value.node.mapping != nil {
            var majors: [String: Int] = [:]
            for (platform, version) in try value.mapping(allowedKeys: DeploymentTarget.platforms) {
                majors[platform] = try major(version)
            }
            return DeploymentTarget(majors: majors)
        }
        let every = try major(value)
        return DeploymentTarget(majors: Dictionary(uniqueKeysWithValues: DeploymentTarget.platforms.map { ($0, every) }))
    }

    private static func readReport(_ entries: StageEntries) throws(TesseraError) -> ReportStageOptions {
        var result = ReportStageOptions()
        result.budget.maxInstall = try entries.value(OptionTable.Report.maxInstall) ?? nil
        result.budget.maxPack = try entries.value(OptionTable.Report.maxPack) ?? nil
        result.budget.maxTotal = try entries.value(OptionTable.Report.maxTotal) ?? nil
        result.budget.maxAsset = try entries.value(OptionTable.Report.maxAsset) ?? nil
        result.budget.maxTag = try entries.value(OptionTable.Report.maxTag) ?? [:]
        result.budget.maxInstallGrowth = try entries.value(OptionTable.Report.maxInstallGrowth) ?? nil
        result.budget.maxPackGrowth = try entries.value(OptionTable.Report.maxPackGrowth) ?? nil
        result.budget.maxAssetGrowth = try entries.value(OptionTable.Report.maxAssetGrowth) ?? nil
        result.against = try entries.value(OptionTable.Report.against) ?? nil
        if result.budget.limitsGrowth, result.against == nil {
            throw TesseraError(.configuration, stage: .pipeline,
                               reason: "'stages.report': growth budgets (max-install-growth, max-pack-growth, max-asset-growth) need 'against', the previous build to compare with")
        }
        return result
    }

    private static func readDecode(_ entries: StageEntries) throws(TesseraError) -> DecodeStageOptions {
        var result = DecodeStageOptions()
        if let limit = try entries.value(OptionTable.Decode.maxPixels) { result.maxPixels = limit }
        return result
    }

    private static func readVariants(_ entries: StageEntries) throws(TesseraError) -> VariantStageOptions {
        var result = VariantStageOptions()
        if let scales = try entries.value(OptionTable.Variants.scales) { result.scales = scales }
        if let unsuffixed = try entries.value(OptionTable.Variants.unsuffixedScale) { result.unsuffixedScale = unsuffixed }
        return result
    }

    private static func readRasterize(_ entries: StageEntries) throws(TesseraError) -> RasterizeStageOptions {
        var result = RasterizeStageOptions()
        if let seconds = try entries.value(OptionTable.Rasterize.renderSeconds) { result.renderSeconds = seconds }
        if let size = try entries.value(OptionTable.Rasterize.maxFileSize) { result.maxFileSize = size }
        return result
    }

    private static func readDownscale(_ entries: StageEntries) throws(TesseraError) -> DownscaleStageOptions {
        var result = DownscaleStageOptions()
        if let filter = try entries.value(OptionTable.Downscale.filter) { result.filter = filter }
        if let linear = try entries.value(OptionTable.Downscale.linearLight) { result.linearLight = linear }
        if let budget = try entries.value(OptionTable.Downscale.memoryBudget) { result.memoryBudget = budget }
        return result
    }

    private static func readEncode(_ entries: StageEntries) throws(TesseraError) -> EncodeStageOptions {
        typealias Encode = OptionTable.Encode
        var result = EncodeStageOptions()
        if let quality = try entries.value(Encode.webpQuality) { result.webp.quality = quality }
        var palette = PNGPalette()
        if let mode = try entries.value(Encode.pngPalette) { palette.mode = mode }
        if let quality = try entries.value(Encode.pngPaletteQuality) { palette.quality = quality }
        if let speed = try entries.value(Encode.pngPaletteSpeed) { palette.speed = speed }
        result.png = PNGEncoder(effort: try entries.value(Encode.pngEffort) ?? Encode.pngEffort.defaultValue,
                                compressionLevel: try entries.value(Encode.pngLevel) ?? nil, palette: palette)
        if let quality = try entries.value(Encode.jpegQuality) { result.jpeg.quality = quality }
        if let progressive = try entries.value(Encode.jpegProgressive) { result.jpeg.progressive = progressive }
        if let chroma = try entries.value(Encode.jpegChroma) { result.jpeg.chroma = chroma }
        return result
    }

    private static func readDecompress(_ entries: StageEntries) throws(TesseraError) -> DecompressStageOptions {
        typealias Decompress = OptionTable.Decompress
        var result = DecompressStageOptions()
        if let globs = try entries.value(Decompress.include) ?? nil {
            result.policy.include = globs
            // Naming assets turns "every asset" off unless it is asked for as well.
            result.policy.all = false
        }
        if let all = try entries.value(Decompress.everyAsset) ?? nil { result.policy.all = all }
        if let animated = try entries.value(Decompress.animated) { result.policy.includeAnimated = animated }
        if let layout = try entries.value(Decompress.pixelFormat) { result.layout = layout }
        if let budget = try entries.value(Decompress.maxBytes) ?? nil { result.policy.maxDecodedBytes = budget }
        return result
    }

    private static func readTiming(_ entries: StageEntries) throws(TesseraError) -> TimingStageOptions {
        var result = TimingStageOptions()
        if let clamp = try entries.value(OptionTable.Timing.clamp) { result.clamp = clamp }
        if let slots = try entries.value(OptionTable.Timing.maxSlots) { result.maxSlots = slots }
        if let subImages = try entries.value(OptionTable.Timing.subImages) { result.subImages = subImages }
        return result
    }

    private static func readPack(_ entries: StageEntries) throws(TesseraError) -> PackStageOptions {
        typealias Pack = OptionTable.Pack
        var result = PackStageOptions()
        if let tags = try entries.value(Pack.initialInstall) { result.initialInstallTags = tags }
        if let order = try entries.value(Pack.prefetchOrder) { result.prefetchOrder = order }
        if let url = try entries.value(Pack.baseURL) { result.baseURL = url }
        if let saving = try entries.value(Pack.minSaving) { result.minimumSaving = saving }
        if let limit = try entries.value(Pack.packLimit) { result.packLimit = limit }
        if let ids = try entries.value(Pack.applePackIDs) { result.applePackIDs = ids }
        if let odr = try entries.value(Pack.appleODR) { result.appleODR = odr }
        if let groups = try entries.value(Pack.playDeviceGroups) { result.playDeviceGroups = groups }
        if let mode = try entries.value(Pack.compress) { result.compression = mode }
        if let level = try entries.value(Pack.xzLevel) { result.compressionLevel = level }
        return result
    }

    private static func readSlice(_ entries: StageEntries) throws(TesseraError) -> SliceStageOptions {
        var result = SliceStageOptions()
        if let devices = try entries.value(OptionTable.Slice.devices) { result.devices = devices }
        return result
    }

    private static func readManifest(_ entries: StageEntries) throws(TesseraError) -> ManifestStageOptions {
        var result = ManifestStageOptions()
        if let file = try entries.value(OptionTable.Manifest.file) { result.file = file }
        return result
    }
}
