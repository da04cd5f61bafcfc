import TesseraCore

/// A first argument that names no subcommand, and the closest one by edit distance.
enum UnknownSubcommand {
    /// The error to print, or nil when `arguments` start with an option or a known subcommand.
    static func message(for arguments: [String], known: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !known.contains(first) else { return nil }
        guard let closest = EditDistance.closest(to: first, in: known).first else { return nil }
        return "unknown command '\(first)'; did you mean '\(closest)'? Commands: \(known.joined(separator: ", "))"
    }
}
