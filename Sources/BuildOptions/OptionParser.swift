/// How an option's value is read. The kinds are few so that each reader (YAML, the command line)
/// maps them onto its own notion of a number, a boolean, a word or a list, with the same checks.
public enum OptionParser<Value: Sendable>: Sendable {
    /// A whole number within a range.
    case integer(ClosedRange<Int>, @Sendable (Int) -> Value)
    /// true or false (a flag on the command line).
    case boolean(@Sendable (Bool) -> Value)
    /// One word or phrase.
    case text(@Sendable (String) throws(OptionError) -> Value)
    /// A list of words (comma-separated on the command line).
    case list(@Sendable ([String]) throws(OptionError) -> Value)

    /// Reads `text` the command line's way: numbers and booleans in their plain spelling, lists
    /// split at commas.
    public func parse(argument text: String) throws(OptionError) -> Value {
        switch self {
        case .integer(let range, let make):
            guard let value = Int(text) else { throw OptionError("expected a whole number, found '\(text)'") }
            return make(try Self.check(value, in: range))
        case .boolean(let make):
            guard let value = Bool(text) else { throw OptionError("expected true or false, found '\(text)'") }
            return make(value)
        case .text(let parse):
            return try parse(text)
        case .list(let parse):
            return try parse(text.split(separator: ",").map(String.init))
        }
    }

    /// The one range check and message for whole numbers, wherever they come from.
    public static func check(_ value: Int, in range: ClosedRange<Int>) throws(OptionError) -> Int {
        guard range.contains(value) else {
            throw OptionError("\(value) is out of range \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }
}
