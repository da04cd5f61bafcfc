import CCodecGuards

/// Runs a C encoder that fills a `tessera_buffer`, returning its bytes or the library's message.
import TesseraCore

func collectEncoderOutput(format: ImageFormat,
                          _ body: (UnsafeMutablePointer<tessera_buffer>, UnsafeMutablePointer<CChar>) -> Int32) throws(TesseraError) -> [UInt8] {
    var buffer = tessera_buffer()
    var message = [CChar](repeating: 0, count: Int(TESSERA_MESSAGE_SIZE))
    let status = message.withUnsafeMutableBufferPointer { body(&buffer, $0.baseAddress!) }
    defer { tessera_buffer_free(&buffer) }
    guard status == 0 else {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw TesseraError(.internalFailure, origin: .encode,
                           reason: "\(format.displayName): \(text.isEmpty ? "unknown encoder error" : text)")
    }
    return Array(UnsafeBufferPointer(start: buffer.bytes, count: buffer.length))
}
