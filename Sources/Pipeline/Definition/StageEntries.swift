import BuildOptions
import TesseraCore
import YAMLReading

/// One stage's options as a pipeline file gives them, checked against the option table: unknown
/// keys are errors, deprecated names are read as the option they became, with a warning.
struct StageEntries {
    private var entries: [String: YAMLValue] = [:]

    /// A stage given as `decode:` with nothing after it takes its defaults.
    init(_ value: YAMLValue, section: OptionSection, warnings: inout [String]) throws(TesseraError) {
        if case .scalar(let scalar) = value.node, scalar.string.isEmpty || scalar.tag.description.hasSuffix("null") {
            return
        }
        let options = section.options
        let given = try value.mapping(allowedKeys: options.map(\.name),
                                      aliases: options.flatMap(\.deprecatedNames))
        for (key, entry) in given.sorted(by: { $0.key < $1.key }) {
            guard let option = options.first(where: { $0.deprecatedNames.contains(key) }) else {
                entries[key] = entry
                continue
            }
            guard given[option.name] == nil else {
                throw entry.error("'\(key)' is the deprecated name of '\(option.name)', which is given too; keep one")
            }
            warnings.append(entry.error(option.deprecation(of: key)).description)
            entries[option.name] = entry
        }
    }

    /// The option's value when the stage gives it, nil otherwise.
    func value<Value>(_ option: OptionSpec<Value>) throws(TesseraError) -> Value? {
        try entries[option.name]?.read(option)
    }

    /// Whether the stage gives the option.
    func has(_ option: any DeclaredOption) -> Bool { entries[option.name] != nil }
}
