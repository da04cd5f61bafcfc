/// One option, declared once: its section, name, type, default, range and help. The pipeline
/// reader reads it under `stages.<section>.<name>`, the commands that take it declare
/// `--<name>` from it, and a test holds `docs/pipeline-format.md` and every `--help` to it.
public struct OptionSpec<Value: Sendable>: DeclaredOption {
    public let section: OptionSection
    public let name: String
    public let defaultValue: Value
    /// The default as the docs and `--help` show it; nil when there is none.
    public let defaultText: String?
    /// What the option does (the range or choices included), one sentence, for `--help`.
    public let help: String
    /// The value's placeholder in `--help` (`0-12`, `MIN-MAX`, `size`).
    public let valueName: String
    /// Names it had before; still read, with a warning that names the new one.
    public let deprecatedNames: [String]
    public let parser: OptionParser<Value>

    public init(_ section: OptionSection, _ name: String, default defaultValue: Value, shown defaultText: String?,
                valueName: String, help: String, deprecatedNames: [String] = [], parser: OptionParser<Value>) {
        self.section = section
        self.name = name
        self.defaultValue = defaultValue
        self.defaultText = defaultText
        self.help = help
        self.valueName = valueName
        self.deprecatedNames = deprecatedNames
        self.parser = parser
    }
}

/// What every option tells about itself, whatever its type: for listing, docs and help checks.
public protocol DeclaredOption: Sendable {
    var section: OptionSection { get }
    var name: String { get }
    var defaultText: String? { get }
    var help: String { get }
    var deprecatedNames: [String] { get }
}

extension DeclaredOption {
    /// The warning a deprecated name gets, wherever it is used (`--old` on the command line
    /// names `--new`).
    public func deprecation(of used: String) -> String {
        "'\(used)' is deprecated; use '\(used.hasPrefix("--") ? "--" : "")\(name)', which means the same"
    }
}
