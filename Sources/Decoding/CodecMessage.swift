import CCodecGuards

/// A zeroed buffer the C guards copy their library's message into.
struct CodecMessage {
    private var storage = [CChar](repeating: 0, count: Int(TESSERA_MESSAGE_SIZE))

    mutating func withPointer<R>(_ body: (UnsafeMutablePointer<CChar>) -> R) -> R {
        storage.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    var text: String {
        let bytes = storage.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let message = String(decoding: bytes, as: UTF8.self)
        return message.isEmpty ? "unknown codec error" : message
    }
}

/// Reads a fixed-size C character array (imported as a tuple) as a String.
func string<T>(fromCArray tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
}

/// The warnings a C guard counted: the first one's text, and how many more there were.
func codecWarnings<T>(count: Int32, first: T) -> [String] {
    guard count > 0 else { return [] }
    let text = string(fromCArray: first)
    return count == 1 ? [text] : [text, "and \(count - 1) more warnings"]
}
