import Yams

/// Parses YAML text into its root node. A syntax error is placed at `file:line:column` in
/// libyaml's own words; a duplicated key at its repeat, since people fix the line they added last.
public enum YAMLDocument {
    /// The root of `text`; nil for a document with nothing in it (or only comments).
    public static func compose(_ text: String, file: String) throws(YAMLSyntaxError) -> Node? {
        do {
            return try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw locate(error, file: file)
        } catch {
            throw YAMLSyntaxError(location: file, problem: "\(error)")
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
