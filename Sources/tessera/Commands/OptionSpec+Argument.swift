import ArgumentParser
import BuildOptions

/// Declares `--<name>` from the option table: the same name, checks and default as the pipeline
/// file's key, so a command's options are written once, in `BuildOptions`.
extension OptionSpec {
    /// `--<name>`.
    var long: NameSpecification { .customLong(name) }

    /// The table's help, with its default in ArgumentParser's own words.
    var argumentHelp: ArgumentHelp {
        ArgumentHelp(help + (defaultText.map { " (default: \($0))" } ?? ""), valueName: valueName)
    }

    /// Parses an argument with the table's parser; its words end up in ArgumentParser's usage error.
    var argument: @Sendable (String) throws -> Value {
        let parser = self.parser
        return { text in try parser.parse(argument: text) }
    }

    /// The same, for an option with no default: the command's property is optional instead.
    func unwrapped<Wrapped>() -> @Sendable (String) throws -> Wrapped where Value == Wrapped? {
        let parser = self.parser, name = self.name
        return { text in
            guard let value = try parser.parse(argument: text) else { throw OptionError("no value for --\(name)") }
            return value
        }
    }

    /// A deprecated spelling of the option: accepted, hidden from help.
    func deprecatedName(_ index: Int = 0) -> NameSpecification { .customLong(deprecatedNames[index]) }
}
