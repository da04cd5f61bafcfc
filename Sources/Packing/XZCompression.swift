import CLZMA
import Delivery
import TesseraCore

/// xz compression through liblzma: single-threaded, so the same bytes always give the same output.
/// Build-side only; `XZ` itself (decompression, CRC) lives in Delivery, which apps link.
extension XZ {
    /// Compresses with preset `level` (0–9) and a CRC-64 check.
    public static func compress(_ bytes: [UInt8], level: UInt32 = PayloadCompressor.defaultLevel) throws(TesseraError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: lzma_stream_buffer_bound(bytes.count))
        var position = 0
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                lzma_easy_buffer_encode(level, LZMA_CHECK_CRC64, nil, input.baseAddress, input.count, out.baseAddress,
                                        &position, out.count)
            }
        }
        guard status == LZMA_OK else {
            throw TesseraError(.internalFailure, stage: .pack, reason: "xz compression failed (liblzma \(status.rawValue))")
        }
        return Array(output.prefix(position))
    }
}
