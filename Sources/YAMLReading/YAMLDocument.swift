import Yams

/// Parses YAML text into its root node. A syntax error is placed at `file:line:column` in
/// libyaml's own words; a duplicated key at its repeat, since people fix the line they added last.
public enum YAMLDocument {
    /// The root of `text`; nil for a document with nothing in it (or only comments).
    public static func compose(_ text: String, file: String) throws(YAMLSyntaxError) -> Node? {
        do {
            let node = try Yams.compose(yaml: text)
            if let node { try checkExpansion(node, textBytes: text.utf8.count, file: file) }
            return node
        } catch let error as YAMLSyntaxError {
            throw error
        } catch let error as YamlError {
            throw locate(error, file: file)
        } catch {
            throw YAMLSyntaxError(location: file, problem: "\(error)")
        }
    }

    /// Most nodes a document may stand for once its aliases are expanded.
    public static let maxExpandedNodes = 1_000_000
    /// Most scalar bytes it may stand for: 16 MiB, or four times its own text when that is more.
    public static func maxExpandedBytes(textBytes: Int) -> Int { max(16 << 20, 4 * textBytes) }

    /// Refuses a document whose aliases make it stand for far more than its text (a "billion
    /// laughs": 1,000 aliases of a 1 MB value took 131 s to read), as libyaml-based tools bound
    /// alias expansion. The walk stops at the limit, so the check itself is bounded.
    static func checkExpansion(_ root: Node, textBytes: Int, file: String) throws(YAMLSyntaxError) {
        let byteLimit = maxExpandedBytes(textBytes: textBytes)
        var nodes = 0, bytes = 0
        var pending = [root]
        while let node = pending.popLast() {
            nodes += 1
            switch node {
            case .scalar(let scalar): bytes += scalar.string.utf8.count
            case .mapping(let mapping):
                for (key, value) in mapping { pending.append(key); pending.append(value) }
            case .sequence(let sequence): pending.append(contentsOf: sequence)
            default: break
            }
            guard nodes <= maxExpandedNodes, bytes <= byteLimit else {
                throw YAMLSyntaxError(location: file,
                                      problem: "the document stands for more than \(nodes > maxExpandedNodes ? "\(maxExpandedNodes) nodes" : "\(byteLimit) bytes") once its aliases are expanded; refused (aliases that repeat a large value are a 'billion laughs')")
            }
        }
    }

    /// Where libyaml (or Yams, for a duplicated key) says the text goes wrong.
    private static func locate(_ error: YamlError, file: String) -> YAMLSyntaxError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
             .composer(_, let problem, let mark, _):
            return YAMLSyntaxError(location: "\(file):\(mark.line):\(mark.column)", problem: problem)
        case .duplicatedKeysInMapping(let keys, let context):
            let key = keys.first ?? ""
            let first = context.mark
            guard let repeated = YAMLDuplicateKey.repeatPosition(of: key, firstAt: first, in: context.text) else {
                return YAMLSyntaxError(location: "\(file):\(first.line):\(first.column)",
                                       problem: "the key '\(key)' appears more than once in one mapping")
            }
            return YAMLSyntaxError(location: "\(file):\(repeated.line):\(repeated.column)",
                                   problem: "the key '\(key)' appears twice (first at line \(first.line))")
        default:
            return YAMLSyntaxError(location: file, problem: String(describing: error))
        }
    }
}

/// A YAML document that does not parse, located for the message.
public struct YAMLSyntaxError: Error, Sendable, Equatable {
    /// `file:line:column`, or only the file when there is no position.
    public let location: String
    /// What is wrong.
    public let problem: String
}
