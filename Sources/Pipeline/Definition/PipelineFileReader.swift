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
            throw TesseraError(.configuration, file: path, origin: .pipeline,
                               reason: exists ? "cannot read the pipeline file"
                                   : "no such pipeline file, and no built-in pipeline of that name (built in: \(BuiltInPipelines.names); `tessera init NAME` writes one to edit)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TesseraError(.configuration, file: path, origin: .pipeline, reason: "the pipeline file is not UTF-8 text")
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
            throw TesseraError(.configuration, file: error.location, origin: .pipeline, reason: "not valid YAML: \(error.problem)")
        }
        guard let root = document else {
            throw TesseraError(.configuration, file: file, origin: .pipeline, reason: "the pipeline file is empty")
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
            var fields = try app.mapping(allowedKeys: appSettingKeys + ["tags"])
            if let tags = fields.removeValue(forKey: "tags") { definition.tagRules = try readTagRules(tags) }
            definition.app = try readAppSettings(fields, startingFrom: AppBuildSettings())
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

    /// One stage's options into its part of the definition: each section reads its options by
    /// its bindings (`StageSection`), in one loop.
    private static func read(_ section: OptionSection, from entries: StageEntries,
                             into definition: inout PipelineDefinition) throws(TesseraError) {
        switch section {
        case .decode: definition.decode = try .read(entries)
        case .variants: definition.variants = try .read(entries)
        case .rasterize: definition.rasterize = try RasterizeStageOptions.read(entries)
        case .downscale: definition.downscale = try DownscaleStageOptions.read(entries)
        case .encode: definition.encode = try .read(entries)
        case .decompress: definition.decompress = try DecompressStageOptions.read(entries)
        case .timing: definition.timing = try .read(entries)
        case .slice: definition.slice = try SliceStageOptions.read(entries)
        case .pack: definition.pack = try PackStageOptions.read(entries)
        case .manifest: definition.manifest = try .read(entries)
        case .report: definition.report = try ReportStageOptions.read(entries)
        }
    }

    /// Every section's bindings, by section: what a test holds the option table to.
    static let bindings: [OptionSection: [any DeclaredOption]] = [
        .decode: DecodeStageOptions.bindings.map(\.option), .variants: VariantStageOptions.bindings.map(\.option),
        .rasterize: RasterizeStageOptions.bindings.map(\.option), .downscale: DownscaleStageOptions.bindings.map(\.option),
        .encode: EncodeStageOptions.bindings.map(\.option), .decompress: DecompressStageOptions.bindings.map(\.option),
        .timing: TimingStageOptions.bindings.map(\.option), .slice: SliceStageOptions.bindings.map(\.option),
        .pack: PackStageOptions.bindings.map(\.option), .manifest: ManifestStageOptions.bindings.map(\.option),
        .report: ReportStageOptions.bindings.map(\.option),
    ]

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
            var paths: [String] = []
            // One path, or a list: a catalog may belong to several targets, and a target to several catalogs.
            let items = input.node.sequence != nil ? try input.list() : [input]
            for item in items {
                var path = try item.string()
                while path.hasSuffix("/") { path.removeLast() }
                if path.hasPrefix("./") { path.removeFirst(2) }
                guard !path.isEmpty, !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
                    throw item.error("'\(path)' is not a relative path inside the input folder")
                }
                guard !paths.contains(path) else { throw item.error("'\(path)' is listed twice") }
                paths.append(path)
            }
            guard !paths.isEmpty else { throw input.error("list at least one folder or catalog inside --input") }
            var ids: [String] = []
            // Identifiers in any case or names (`iPhone 15 Pro`), read as identifiers once, here;
            // one Tessera does not know stays as written, and planning names it.
            for device in try devices.list() {
                let text = try device.string()
                ids.append(KnownDevices.canonicalIdentifier(text) ?? text)
            }
            guard !ids.isEmpty else { throw devices.error("list at least one device class") }
            let own = fields.filter { appSettingKeys.contains($0.key) }
            let target = PipelineTarget(name: try name.string(), inputs: paths, devices: ids,
                                        settings: own.isEmpty ? nil : try readAppSettings(own, startingFrom: app))
            if targets.contains(where: { $0.name == target.name }) {
                throw item.error("target '\(target.name)' repeats another target's name")
            }
            targets.append(target)
        }
        return targets
    }

    /// The keys of `app:` and of a target that set its build settings, named as Xcode's.
    static let appSettingKeys = ["app-icon", "alternate-app-icons", "include-all-app-icons", "device-family", "keep-in-app",
                                 "deployment-target", "accent-color", "widget-background", "launch-screen"]

    /// `app.tags`: globs over asset names mapped to lists of on-demand tags, for every asset the
    /// build reads (catalog sets and folder files alike). A tag Xcode would refuse is an error.
    private static func readTagRules(_ value: YAMLValue) throws(TesseraError) -> TagRules {
        guard let mapping = value.node.mapping else { throw value.error("expected a mapping of globs to lists of tags") }
        var rules = TagRules()
        for (key, tags) in mapping {
            guard let glob = key.scalar?.string, !glob.isEmpty else { throw value.at(key, keyPath: value.keyPath).error("a glob must be a string") }
            let keyValue = value.at(key, keyPath: "\(value.keyPath).\(glob)")
            guard !rules.rules.contains(where: { $0.glob == glob }) else { throw keyValue.error("the glob appears twice") }
            var list: [String] = []
            for item in try value.at(tags, keyPath: keyValue.keyPath).list() {
                let tag = try item.string()
                if let problem = OnDemandTag.problem(with: tag) { throw item.error(problem) }
                if !list.contains(tag) { list.append(tag) }
            }
            guard !list.isEmpty else { throw keyValue.error("list at least one tag") }
            rules.rules.append(TagRules.Rule(glob: glob, tags: list, origin: keyValue.location, key: keyValue.keyPath))
        }
        return rules
    }

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
        if let accent = fields["accent-color"] { settings.accentColor = try accent.string() }
        if let widget = fields["widget-background"] { settings.widgetBackground = try widget.string() }
        if let launch = fields["launch-screen"] { settings.launchScreen = try strings(launch) }
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
}
