import CLZMA
import Delivery
import TesseraCore

/// xz compression through liblzma: single-threaded, so the same bytes always give the same output.
/// Build-side only; `XZ` itself (decompression, CRC) lives in Delivery, which apps link.
extension XZ {
    /// liblzma's preset for a whole manifest (`manifest.json.xz`, by a build and by `tessera
    /// publish`): 6 keeps a 6 MB manifest's dictionary whole.
    public static let manifestLevel: UInt32 = 6

    /// Compresses with preset `level` (0–9) and a CRC-64 check.
    public static func compress(_ bytes: [UInt8], level: UInt32 = PayloadCompressor.defaultLevel) throws(TesseraError) -> [UInt8] {
        // The bound (a little over the input) left uninitialized: the pages liblzma never writes,
        // most of them for anything that compresses, are never touched and never resident; a
        // 47 MB manifest's zero-filled bound was 47 MB of the after-build step's peak (issue 54).
        var status = LZMA_OK
        let output = [UInt8](unsafeUninitializedCapacity: lzma_stream_buffer_bound(bytes.count)) { out, count in
            var position = 0
            status = bytes.withUnsafeBufferPointer { input in
                lzma_easy_buffer_encode(level, LZMA_CHECK_CRC64, nil, input.baseAddress, input.count, out.baseAddress,
                                        &position, out.count)
            }
            count = status == LZMA_OK ? position : 0
        }
        guard status == LZMA_OK else {
            throw TesseraError(.internalFailure, origin: .pack, reason: "xz compression failed (liblzma \(status.rawValue))")
        }
        return Array(output[...])  // a copy of its own size, not the bound's
    }
}
