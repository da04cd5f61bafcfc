import Delivery
import TesseraCore

/// A manifest's JSON in pieces, byte for byte what `StableJSON.encode(manifest)` makes: the
/// manifest without its long lists (assets, data, app files, bundles, app shares) encoded whole,
/// and each list spliced in at its key, encoded `chunk` entries at a time and indented to its
/// depth. So encoding never holds more than one chunk's JSON (and its encoder's tree) besides the
/// manifest itself, where one `JSONEncoder` pass over 100,000 assets built a tree of about 2 GB.
///
/// Pretty-printed JSON indents each level by two spaces (an empty array's blank line excepted)
/// and escapes every newline inside a string, so indenting a chunk's lines is all that placing
/// it deeper takes.
public enum ManifestJSON {
    /// Entries encoded at once: a few hundred kilobytes of JSON for the largest lists' entries.
    public static let defaultChunk = 256

    /// Calls `emit` with consecutive pieces of the manifest's JSON.
    static func encode(_ manifest: Manifest, chunk: Int = defaultChunk,
                       _ emit: ([UInt8]) throws(TesseraError) -> Void) throws(TesseraError) {
        var skeleton = manifest
        skeleton.assets = []
        skeleton.data = []
        skeleton.bundles = []
        skeleton.app = manifest.app.map { _ in [] }
        skeleton.appShares = manifest.appShares.map { _ in [] }
        let lists = [
            List("assets", manifest.assets), List("data", manifest.data), List("bundles", manifest.bundles),
            List("app", manifest.app ?? []), List("appShares", manifest.appShares ?? []),
        ]
        let text = try StableJSON.encode(skeleton)
        // Each non-empty list's place in the skeleton: its key at the top level (two spaces in),
        // holding an empty array.
        var places: [(at: Int, length: Int, list: List)] = []
        for list in lists where list.count > 0 {
            let marker = Array("\n  \"\(list.key)\" : [\n\n  ]".utf8)
            guard let at = text.firstRange(of: marker)?.lowerBound else {
                throw TesseraError(.internalFailure, stage: .manifest, reason: "the manifest's \(list.key) has no place in its JSON")
            }
            places.append((at, marker.count, list))
        }
        var done = 0
        for place in places.sorted(by: { $0.at < $1.at }) {
            let opening = Array("\n  \"\(place.list.key)\" : [".utf8)
            try emit(Array(text[done..<place.at]) + opening)
            var start = 0
            while start < place.list.count {
                let end = min(place.list.count, start + max(1, chunk))
                try emit((start == 0 ? [] : Array(",".utf8)) + Self.indented(try place.list.encode(start..<end)))
                start = end
            }
            try emit(Array("\n  ]".utf8))
            done = place.at + place.length
        }
        try emit(Array(text[done...]))
    }

    /// A chunk's array (`[\n  a,\n  b\n]\n`) as the lines of its entries one level deeper, each
    /// starting on a new line: `\n    a,\n    b`.
    private static func indented(_ array: [UInt8]) -> [UInt8] {
        // Between the opening "[" and the closing "\n]\n".
        let body = array[1..<(array.count - 3)]
        var out: [UInt8] = []
        out.reserveCapacity(body.count + body.count / 8)
        var index = body.startIndex
        while index < body.endIndex {
            let byte = body[index]
            out.append(byte)
            index += 1
            // An empty array's blank line stays blank.
            if byte == 0x0A, index < body.endIndex, body[index] != 0x0A { out += [0x20, 0x20] }
        }
        return out
    }

    /// A list and how to encode a range of it as a JSON array.
    private struct List {
        let key: String
        let count: Int
        let encode: (Range<Int>) throws(TesseraError) -> [UInt8]

        init<Entry: Encodable>(_ key: String, _ entries: [Entry]) {
            self.key = key
            count = entries.count
            encode = { range throws(TesseraError) in try StableJSON.encode(Array(entries[range])) }
        }
    }
}
