/// A document's `StableJSON` in pieces, byte for byte what `StableJSON.encode` makes of it whole:
/// the document without its long lists (the `skeleton`, each list empty) encoded whole, and each
/// list spliced in at its key, encoded `chunk` entries at a time and indented to its depth. So
/// writing never holds more than one chunk's JSON (and its encoder's tree) besides the document,
/// where one `JSONEncoder` pass builds a tree of several times the text (issue 54, item 14: a
/// 100,000-asset manifest took gigabytes).
///
/// A list must be a member of the top-level object. Pretty-printed JSON indents each level by two
/// spaces (an empty array's blank line excepted) and escapes every newline inside a string, so
/// indenting a chunk's lines is all that placing it deeper takes.
public enum StreamedJSON {
    /// Entries encoded at once: a few hundred kilobytes of JSON for the largest lists' entries.
    public static let defaultChunk = 256

    /// One long list of the document: its key, and its entries by range.
    public struct List {
        let key: String
        let count: Int
        /// Entries encoded at once, when not the document's `chunk`.
        var chunk: Int?
        let encode: (Range<Int>) throws(TesseraError) -> [UInt8]

        /// `entries` are made a range at a time, when that range is encoded.
        public init<Entry: Encodable>(_ key: String, count: Int, entries: @escaping (Range<Int>) -> [Entry]) {
            self.key = key
            self.count = count
            encode = { range throws(TesseraError) in try StableJSON.encode(entries(range)) }
        }

        public init<Entry: Encodable>(_ key: String, _ entries: [Entry]) {
            self.init(key, count: entries.count) { Array(entries[$0]) }
        }

        /// Entries made a part at a time, `parts` parts, each of any number of entries (none too):
        /// for a list whose length is known only as it is made, so that it is never whole (a
        /// device's slice rows, made a few thousand assets at a time: one device's rows of a
        /// 100,000-set build were about 90 MB, made at once at the build's peak; issue 54, item 14).
        public init<Entry: Encodable>(_ key: String, parts: Int, entries: @escaping (Int) -> [Entry]) {
            self.key = key
            count = parts
            chunk = 1
            encode = { range throws(TesseraError) in
                let made = range.flatMap { entries($0) }
                // Nothing for a part with no entry: `encode(_:lists:)` leaves it out.
                return made.isEmpty ? [] : try StableJSON.encode(made)
            }
        }

        /// Entries that hold long lists of their own (an app share's assets): each is streamed as
        /// a document of its own, `parts` giving its skeleton and lists, one entry at a time, so
        /// that no entry's encoder tree is ever whole (one app share of a 100,000-set build held
        /// every in-app asset).
        public init<Entry, Skeleton: Encodable>(_ key: String, documents entries: [Entry],
                                                parts: @escaping (Entry) -> (skeleton: Skeleton, lists: [List])) {
            self.key = key
            count = entries.count
            chunk = 1
            encode = { range throws(TesseraError) in
                // What `StableJSON` makes of an array of these entries: each document's lines one
                // level deeper, the documents apart by a comma.
                var array = Array("[".utf8)
                for (offset, entry) in entries[range].enumerated() {
                    let (skeleton, lists) = parts(entry)
                    var document: [UInt8] = []
                    try StreamedJSON.encode(skeleton, lists: lists) { document += $0 }
                    // Without the document's closing newline.
                    array += Array((offset == 0 ? "\n  " : ",\n  ").utf8) + indentedLines(document.dropLast())
                }
                return array + Array("\n]\n".utf8)
            }
        }
    }

    /// Calls `emit` with consecutive pieces of the JSON of `skeleton` with `lists` in place.
    public static func encode<Skeleton: Encodable>(_ skeleton: Skeleton, lists: [List], chunk: Int = defaultChunk,
                                                   _ emit: ([UInt8]) throws(TesseraError) -> Void) throws(TesseraError) {
        let text = try StableJSON.encode(skeleton)
        // Each non-empty list's place in the skeleton: its key at the top level (two spaces in),
        // holding an empty array.
        var places: [(at: Int, length: Int, list: List)] = []
        for list in lists where list.count > 0 {
            let marker = Array("\n  \"\(list.key)\" : [\n\n  ]".utf8)
            guard let at = text.firstRange(of: marker)?.lowerBound else {
                throw TesseraError(.internalFailure, reason: "\(list.key) has no place in its document's JSON")
            }
            places.append((at, marker.count, list))
        }
        var done = 0
        for place in places.sorted(by: { $0.at < $1.at }) {
            let opening = Array(text[done..<place.at]) + Array("\n  \"\(place.list.key)\" : [".utf8)
            var start = 0, emitted = false
            while start < place.list.count {
                let end = min(place.list.count, start + max(1, place.list.chunk ?? chunk))
                let piece = try place.list.encode(start..<end)
                start = end
                // A part that made no entry (`List(_:parts:entries:)`) adds nothing.
                guard !piece.isEmpty else { continue }
                try emit((emitted ? [UInt8(ascii: ",")] : opening) + indented(piece))
                emitted = true
            }
            // A list whose parts made no entry at all is the skeleton's empty array, as it was.
            try emit(emitted ? Array("\n  ]".utf8) : Array(text[done..<(place.at + place.length)]))
            done = place.at + place.length
        }
        try emit(Array(text[done...]))
    }

    /// Writes the JSON of `skeleton` with `lists` in place to `path`, atomically, a megabyte at a time.
    public static func write<Skeleton: Encodable>(_ skeleton: Skeleton, lists: [List], to path: String) throws(TesseraError) {
        let writer = try AtomicFileWriter(path: path)
        var pending: [UInt8] = []
        try encode(skeleton, lists: lists) { piece throws(TesseraError) in
            pending += piece
            if pending.count >= 1 << 20 {
                try writer.append(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        try writer.append(pending)
        try writer.commit()
    }

    /// A chunk's array (`[\n  a,\n  b\n]\n`) as the lines of its entries one level deeper, each
    /// starting on a new line: `\n    a,\n    b`.
    private static func indented(_ array: [UInt8]) -> [UInt8] {
        // Between the opening "[" and the closing "\n]\n".
        indentedLines(array[1..<(array.count - 3)])
    }

    /// `body` with every line after a newline two spaces deeper, blank lines left blank.
    fileprivate static func indentedLines(_ body: ArraySlice<UInt8>) -> [UInt8] {
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
}
