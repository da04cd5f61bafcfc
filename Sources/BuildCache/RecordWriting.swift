import Foundation
import TesseraCore

/// Writes the cache's own records (`ActionEntry`, `ResultPack`) as the bytes `StableJSON.compact`
/// gives them (sorted keys, no indentation, slashes as they are), without `JSONEncoder`.
///
/// A build storing its results encodes an entry per job and then the pack of all of them; on
/// Linux `JSONEncoder`'s generic machinery was about a tenth of a remote-cache fill's CPU. The
/// counterpart of `RecordScanner`, it knows only what the cache writes: objects with known keys,
/// integers, base64 and strings. A string that JSON would escape (a quote, a backslash, a control
/// character) makes it give up, and the caller encodes with `JSONEncoder`: the bytes never differ.
struct RecordWriter {
    private(set) var bytes: [UInt8] = []
    /// False once a value needed escaping.
    private(set) var plain = true

    init(reservingCapacity capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `"key":`
    mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { plain = false }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func hash(_ value: ContentHash) {
        string(value.hex)
    }

    mutating func base64(_ data: Data) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: data.base64EncodedString().utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    /// `[a,b,…]`, each element written by `element`.
    mutating func array<C: Collection>(_ values: C, _ element: (inout RecordWriter, C.Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for value in values {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}

extension ActionEntry {
    /// The compact JSON body, written by hand when it can be (`RecordWriter`).
    func compactJSON() throws(TesseraError) -> [UInt8] {
        var writer = RecordWriter(reservingCapacity: 256 + metadata.count * 4 / 3)
        write(to: &writer)
        return writer.plain ? writer.bytes : try StableJSON.compact(self)
    }

    func write(to writer: inout RecordWriter) {
        writer.raw("{")
        writer.key("format"); writer.int(format); writer.raw(",")
        writer.key("key"); writer.hash(key); writer.raw(",")
        writer.key("metadata"); writer.base64(metadata); writer.raw(",")
        writer.key("outputs")
        writer.array(outputs) { writer, output in
            writer.raw("{")
            if let contents = output.contents { writer.key("contents"); writer.base64(contents); writer.raw(",") }
            writer.key("path"); writer.string(output.path); writer.raw(",")
            writer.key("sha256"); writer.hash(output.sha256); writer.raw(",")
            writer.key("size"); writer.int(output.size)
            writer.raw("}")
        }
        writer.raw(",")
        writer.key("stage"); writer.string(stage)
        writer.raw("}")
    }
}

extension ResultPack {
    /// The compact JSON body, written by hand when it can be (`RecordWriter`).
    func compactJSON() throws(TesseraError) -> [UInt8] {
        var writer = RecordWriter(reservingCapacity: 1 << 16)
        writer.raw("{")
        writer.key("format"); writer.int(format); writer.raw(",")
        writer.key("results")
        writer.array(results) { writer, result in
            writer.raw("{")
            writer.key("entry"); result.entry.write(to: &writer); writer.raw(",")
            writer.key("key"); writer.hash(result.key)
            writer.raw("}")
        }
        writer.raw(",")
        writer.key("segments")
        writer.array(segments) { writer, segment in
            writer.raw("{")
            writer.key("blobs")
            writer.array(segment.blobs) { writer, blob in
                writer.raw("{")
                writer.key("sha256"); writer.hash(blob.sha256); writer.raw(",")
                writer.key("size"); writer.int(blob.size)
                writer.raw("}")
            }
            writer.raw(",")
            writer.key("sha256"); writer.hash(segment.sha256); writer.raw(",")
            writer.key("size"); writer.int(segment.size)
            writer.raw("}")
        }
        writer.raw("}")
        return writer.plain ? writer.bytes : try StableJSON.compact(self)
    }
}
