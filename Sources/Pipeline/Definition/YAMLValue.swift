import TesseraCore
import Yams

/// A node of a YAML document that remembers where it came from, so every error can name the
/// file, the line and the dotted key (`stages.downscale.filter`).
struct YAMLValue {
    let node: Node
    let file: String
    let keyPath: String

    /// `file:line:column`, or just the file when the node has no position.
    var location: String {
        guard let mark = node.mark else { return file }
        return "\(file):\(mark.line):\(mark.column)"
    }

    func error(_ reason: String) -> TesseraError {
        TesseraError(.configuration, file: location, stage: .pipeline,
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
    func mapping(allowedKeys allowed: [String], aliases: [String] = []) throws(TesseraError) -> [String: YAMLValue] {
        guard let mapping = node.mapping else { throw error("expected a mapping of keys, found \(kindName)") }
        var entries: [String: YAMLValue] = [:]
        for (key, value) in mapping {
            let child = YAMLValue(node: key, file: file, keyPath: keyPath)
            guard let name = key.scalar?.string else { throw child.error("keys must be plain names") }
            let path = keyPath.isEmpty ? name : "\(keyPath).\(name)"
            guard allowed.contains(name) || aliases.contains(name) else {
                throw YAMLValue(node: key, file: file, keyPath: path)
                    .error("unknown key; expected one of \(allowed.joined(separator: ", "))")
            }
            guard entries[name] == nil else {
                throw YAMLValue(node: key, file: file, keyPath: path).error("the key appears twice")
            }
            entries[name] = YAMLValue(node: value, file: file, keyPath: path)
        }
        return entries
    }

    func string() throws(TesseraError) -> String {
        guard let scalar = node.scalar else { throw error("expected a string, found \(kindName)") }
        return scalar.string
    }

    func int(in range: ClosedRange<Int>) throws(TesseraError) -> Int {
        guard node.scalar != nil, let value = node.int else {
            throw error("expected a whole number, found \(describe())")
        }
        guard range.contains(value) else {
            throw error("\(value) is out of range \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    func bool() throws(TesseraError) -> Bool {
        guard node.scalar != nil, let value = node.bool else { throw error("expected true or false, found \(describe())") }
        return value
    }

    func list() throws(TesseraError) -> [YAMLValue] {
        guard let sequence = node.sequence else { throw error("expected a list, found \(kindName)") }
        return sequence.enumerated().map { YAMLValue(node: $1, file: file, keyPath: "\(keyPath)[\($0)]") }
    }

    /// A value that must be one of a fixed set of words.
    func oneOf<T>(_ choices: [(String, T)]) throws(TesseraError) -> T {
        let text = try string()
        guard let match = choices.first(where: { $0.0 == text }) else {
            throw error("'\(text)' is not one of \(choices.map(\.0).joined(separator: ", "))")
        }
        return match.1
    }

    /// A size like `512MB`.
    func byteCount() throws(TesseraError) -> ByteCount {
        let text = try string()
        guard let size = ByteCount(parsing: text) else { throw error("'\(text)' is not a size like 512MB or 1GiB") }
        return size
    }

    private func describe() -> String {
        node.scalar.map { "'\($0.string)'" } ?? kindName
    }
}
