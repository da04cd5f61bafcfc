/// Why a value is not acceptable for an option, in words both the pipeline reader (after the
/// file, line and key) and the command line (after the option) print as they are.
public struct OptionError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    /// For a list, the position of the item at fault; nil when the whole value is.
    public var item: Int?

    public init(_ reason: String, item: Int? = nil) {
        self.reason = reason
        self.item = item
    }

    public var description: String { reason }
}
