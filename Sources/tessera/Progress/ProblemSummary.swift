import Pipeline

/// A build's problems as people read them at the end of a run: every error on its own line, and
/// warnings grouped by kind — one line with a count and the first few files when a kind repeats
/// (a 2x-only catalog gives the same warning for each set), so a 1,000-asset build does not bury
/// its one error. A kind is the stage and the reason with every quoted name in it left out
/// (`asset '…' is in no target`): a warning that names its asset is still one kind.
/// `--verbose` prints every warning on its own line.
enum ProblemSummary {
    /// Files named per grouped kind.
    static let filesShown = 3

    /// The lines to print, errors first, each kind in the order it first appears.
    static func lines(warnings: [BuildProblem], failures: [BuildProblem], verbose: Bool) -> [String] {
        var lines = failures.map { "error: \($0.message)" }
        guard !verbose else { return lines + warnings.map { "warning: \($0.message)" } }
        var order: [String] = []
        var groups: [String: [BuildProblem]] = [:]
        for warning in warnings {
            let kind = "\(warning.stage): \(Self.kind(of: warning.reason))"
            if groups[kind] == nil { order.append(kind) }
            groups[kind, default: []].append(warning)
        }
        for kind in order {
            let group = groups[kind]!
            if group.count == 1 {
                lines.append("warning: \(group[0].message)")
            } else {
                let shown = group.prefix(filesShown).map(\.file).joined(separator: ", ")
                let more = group.count > filesShown ? ", … (--verbose lists all)" : ""
                lines.append("warning: \(kind) — \(group.count) files: \(shown)\(more)")
            }
        }
        return lines
    }

    /// `reason` with each `'quoted'` span written `'…'`: what stays the same between the warnings
    /// of one kind.
    static func kind(of reason: String) -> String {
        var result = "", quoted = false
        for character in reason {
            if character == "'" {
                if !quoted { result += "'…'" }
                quoted.toggle()
            } else if !quoted {
                result.append(character)
            }
        }
        // An apostrophe with no closing quote (`Play's`) leaves the rest as it was.
        return quoted ? reason : result
    }
}
