import Foundation

/// The one JSON style Tessera writes: pretty-printed, sorted keys, unescaped slashes, a trailing
/// newline. Sorted keys are what make manifests and reports byte-identical across runs.
public enum StableJSON {
    public static func encode<T: Encodable>(_ value: T) throws(TesseraError) -> [UInt8] {
        try encode(value, [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) + [0x0A]
    }

    /// Sorted keys and unescaped slashes without indentation or a trailing newline: for records
    /// only machines read, megabytes long.
    public static func compact<T: Encodable>(_ value: T) throws(TesseraError) -> [UInt8] {
        try encode(value, [.sortedKeys, .withoutEscapingSlashes])
    }

    /// Reads what `encode` or `compact` wrote; `source` names where the bytes came from in the error.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], source: String) throws(TesseraError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw TesseraError(.invalidInput, file: source, reason: "not a \(T.self): \(error)")
        }
    }

    private static func encode<T: Encodable>(_ value: T, _ formatting: JSONEncoder.OutputFormatting) throws(TesseraError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw TesseraError(.internalFailure, reason: "cannot encode \(T.self) as JSON: \(error)")
        }
    }
}

/// Levenshtein distance, case-insensitive: enough to suggest the name someone meant.
public enum EditDistance {
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// `candidates` ordered by distance to `word`, then alphabetically.
    public static func closest(to word: String, in candidates: [String]) -> [String] {
        candidates.sorted { (between($0, word), $0) < (between($1, word), $1) }
    }
}
