import TesseraCore
import Yams

/// A node of a YAML document that remembers where it came from, so every error can name the
/// file, the line and the dotted key (`stages.downscale.filter`). The pipeline file and a
/// folder's `tessera.yml` are both read through it.
public struct YAMLValue {
    public let node: Node
    /// The file as messages name it.
    public let file: String
    /// Dotted, with list indices (`stages.slice.devices[2]`); empty for the document itself.
    public let keyPath: String
    /// The stage errors are charged to: the pipeline file's checks unless the reader says otherwise.
    public let stage: ProblemOrigin

    public init(node: Node, file: String, keyPath: String, stage: ProblemOrigin = .pipeline) {
        self.node = node
        self.file = file
        self.keyPath = keyPath
        self.stage = stage
    }

    /// The value of `node` read from the same file, under `keyPath`.
    public func at(_ node: Node, keyPath: String) -> YAMLValue {
        YAMLValue(node: node, file: file, keyPath: keyPath, stage: stage)
    }

    /// `file:line:column`, or just the file when the node has no position.
    public var location: String {
        guard let mark = node.mark else { return file }
        return "\(file):\(mark.line):\(mark.column)"
    }

    /// A configuration error at this value: `file:line:column`, then `'key.path': reason`.
    public func error(_ reason: String) -> TesseraError {
        TesseraError(.configuration, file: location, origin: stage,
                     reason: keyPath.isEmpty ? reason : "'\(keyPath)': \(reason)")
    }

    private var kindName: String {
        switch node {
        case .scalar: "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// The mapping's entries, after checking that every key is one of `allowed` or of `aliases`
    /// (accepted, but not suggested in the error).
    public func mapping(allowedKeys allowed: [String], aliases: [String] = []) throws(TesseraError) -> [String: YAMLValue] {
        guard let mapping = node.mapping else { throw error("expected a mapping of keys, found \(kindName)") }
        var entries: [String: YAMLValue] = [:]
        for (key, value) in mapping {
            let child = at(key, keyPath: keyPath)
            guard let name = key.scalar?.string else { throw child.error("keys must be plain names") }
            let path = keyPath.isEmpty ? name : "\(keyPath).\(name)"
            guard allowed.contains(name) || aliases.contains(name) else {
                throw at(key, keyPath: path).error("unknown key; expected one of \(allowed.joined(separator: ", "))")
            }
            guard entries[name] == nil else {
                throw at(key, keyPath: path).error("the key appears twice")
            }
            entries[name] = at(value, keyPath: path)
        }
        return entries
    }

    /// A scalar's text.
    public func string() throws(TesseraError) -> String {
        guard let scalar = node.scalar else { throw error("expected a string, found \(kindName)") }
        return scalar.string
    }

    /// A whole number within `range`.
    public func int(in range: ClosedRange<Int>) throws(TesseraError) -> Int {
        guard node.scalar != nil, let value = node.int else {
            throw error("expected a whole number, found \(describe())")
        }
        guard range.contains(value) else {
            throw error("\(value) is out of range \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// `true` or `false`.
    public func bool() throws(TesseraError) -> Bool {
        guard node.scalar != nil, let value = node.bool else { throw error("expected true or false, found \(describe())") }
        return value
    }

    /// A list's items, each keyed `keyPath[index]`.
    public func list() throws(TesseraError) -> [YAMLValue] {
        guard let sequence = node.sequence else { throw error("expected a list, found \(kindName)") }
        return sequence.enumerated().map { at($1, keyPath: "\(keyPath)[\($0)]") }
    }

    /// A value that must be one of a fixed set of words.
    public func oneOf<T>(_ choices: [(String, T)]) throws(TesseraError) -> T {
        let text = try string()
        guard let match = choices.first(where: { $0.0 == text }) else {
            throw error("'\(text)' is not one of \(choices.map(\.0).joined(separator: ", "))")
        }
        return match.1
    }

    /// A size like `512MB`.
    public func byteCount() throws(TesseraError) -> ByteCount {
        let text = try string()
        guard let size = ByteCount(parsing: text) else { throw error("'\(text)' is not a size like 512MB or 1GiB") }
        return size
    }

    private func describe() -> String {
        node.scalar.map { "'\($0.string)'" } ?? kindName
    }
}
