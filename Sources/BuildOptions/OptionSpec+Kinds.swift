import TesseraCore

/// The common kinds of option, so each declaration in the table is one expression.
extension OptionSpec {
    /// A whole number in `range`.
    public static func integer(_ section: OptionSection, _ name: String, default value: Value, shown: String? = nil,
                               range: ClosedRange<Int>, help: String, deprecatedNames: [String] = []) -> OptionSpec
        where Value == Int {
        OptionSpec(section, name, default: value, shown: shown ?? String(value),
                   valueName: "\(range.lowerBound)-\(range.upperBound)", help: help, deprecatedNames: deprecatedNames,
                   parser: .integer(range) { $0 })
    }

    /// true or false, off by default: a flag on the command line.
    public static func flag(_ section: OptionSection, _ name: String, help: String) -> OptionSpec where Value == Bool {
        OptionSpec(section, name, default: false, shown: "false", valueName: "bool", help: help, parser: .boolean { $0 })
    }

    /// One of a fixed set of words: an enumeration's raw values, in its declared order.
    public static func choice(_ section: OptionSection, _ name: String, default value: Value,
                              help: String) -> OptionSpec
        where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
        let words = Value.allCases.map(\.rawValue)
        return OptionSpec(section, name, default: value, shown: value.rawValue,
                          valueName: words.joined(separator: "|"), help: help,
                          parser: .text { text throws(OptionError) in
                              guard let match = Value(rawValue: text) else {
                                  throw OptionError("'\(text)' is not one of \(words.joined(separator: ", "))")
                              }
                              return match
                          })
    }

    /// A size such as `512MB` or `1GiB` (`ByteCount`).
    public static func size(_ section: OptionSection, _ name: String, default value: Value, shown: String?,
                            help: String, _ make: @escaping @Sendable (ByteCount) -> Value) -> OptionSpec {
        OptionSpec(section, name, default: value, shown: shown, valueName: "size", help: help,
                   parser: .text { text throws(OptionError) in
                       guard let size = ByteCount(parsing: text) else {
                           throw OptionError("'\(text)' is not a size like 512MB or 1GiB")
                       }
                       return make(size)
                   })
    }

    /// A list of plain words, taken as they are.
    public static func words(_ section: OptionSection, _ name: String, default value: Value, shown: String?,
                             help: String, _ make: @escaping @Sendable ([String]) throws(OptionError) -> Value)
        -> OptionSpec {
        OptionSpec(section, name, default: value, shown: shown, valueName: "list", help: help, parser: .list(make))
    }
}
