import TesseraCore

/// xz decompression: liblzma on Linux, the Compression framework on Apple platforms (so an app
/// links no liblzma). Compression is build-side only (`XZ.compress` in Packing).
public enum XZ {
    /// Decompresses into memory, refusing to produce more than `expectedSize` bytes (the size the
    /// record declares) or to start at all when that is over `maxSize`. Memory grows with the bytes
    /// really produced, never with the declared size; `BundleFile.read(_:into:)` streams instead.
    public static func decompress(_ bytes: [UInt8], expectedSize: Int,
                                  maxSize: Int = BundleLimits.standard.maxInMemorySize) throws(TesseraError) -> [UInt8] {
        guard expectedSize <= maxSize else {
            throw TesseraError(.limitExceeded, origin: .bundle,
                               reason: "an xz payload declares \(expectedSize) bytes, over the \(maxSize)-byte limit for reading into memory")
        }
        let decoder = try XZStreamDecoder(expectedSize: expectedSize)
        var output: [UInt8] = []
        let append = { (piece: UnsafeRawBufferPointer) throws(TesseraError) in output.append(contentsOf: piece) }
        try decoder.feed(bytes, into: append)
        try decoder.finish(into: append)
        return output
    }

    /// Decompresses a stream read piece by piece (`next` returns nil at its end) into `sink` as
    /// output appears, refusing to produce other than exactly `expectedSize` bytes: memory stays
    /// the decoder's dictionary and one buffer whatever the size (a downloaded object decoded
    /// into place by a client).
    public static func decompress(reading next: () throws(TesseraError) -> [UInt8]?, expectedSize: Int,
                                  into sink: (UnsafeRawBufferPointer) throws(TesseraError) -> Void) throws(TesseraError) {
        let decoder = try XZStreamDecoder(expectedSize: expectedSize)
        while let piece = try next() { try decoder.feed(piece, into: sink) }
        try decoder.finish(into: sink)
    }
}
