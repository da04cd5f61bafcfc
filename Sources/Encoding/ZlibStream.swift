import CDeflate
import TesseraCore

/// A whole buffer compressed to one zlib stream with libdeflate, which is several times faster
/// than zlib at the same ratio and deterministic for a given level.
enum ZlibStream {
    static func compress(_ input: [UInt8], level: Int) throws(TesseraError) -> [UInt8] {
        let compressor = try Compressor(level: level)
        let bound = compressor.bound(input.count)
        // Uninitialised, so only the pages libdeflate writes are ever touched.
        var written = 0
        let output = [UInt8](unsafeUninitializedCapacity: bound) { target, initialized in
            written = input.withUnsafeBytes { compressor.compress($0, into: UnsafeMutableRawBufferPointer(target)) }
            initialized = written
        }
        guard written > 0 else { throw Compressor.failure }
        return output
    }

    /// One libdeflate compressor at one level, freed with the value.
    final class Compressor {
        private let compressor: OpaquePointer

        init(level: Int) throws(TesseraError) {
            guard let compressor = libdeflate_alloc_compressor(Int32(level)) else {
                throw TesseraError(.internalFailure, stage: .encode, reason: "PNG: cannot allocate a level-\(level) compressor")
            }
            self.compressor = compressor
        }

        deinit { libdeflate_free_compressor(compressor) }

        /// The most bytes `count` input bytes can take compressed.
        func bound(_ count: Int) -> Int { libdeflate_zlib_compress_bound(compressor, count) }

        /// Compresses `input` into `output` (at least `bound(input.count)` bytes); the bytes written.
        /// The bound is libdeflate's own worst case, so zero means a broken library.
        func compress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
            libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
        }

        static let failure = TesseraError(.internalFailure, stage: .encode, reason: "PNG: libdeflate could not compress the image data")
    }
}
