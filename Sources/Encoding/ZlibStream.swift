import CDeflate
import Synchronization
import TesseraCore

/// A whole buffer compressed to one zlib stream with libdeflate, which is several times faster
/// than zlib at the same ratio and deterministic for a given level.
enum ZlibStream {
    static func compress(_ input: [UInt8], level: Int) throws(TesseraError) -> [UInt8] {
        try Compressor.borrowing(level: level) { compressor throws(TesseraError) in
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
    }

    /// One libdeflate compressor at one level, freed with the value. Unchecked `Sendable`: one
    /// encode at a time uses it, borrowed (`borrowing(level:_:)`) and given back.
    final class Compressor: @unchecked Sendable {
        private let compressor: OpaquePointer

        init(level: Int) throws(TesseraError) {
            guard let compressor = libdeflate_alloc_compressor(Int32(level)) else {
                throw TesseraError(.internalFailure, origin: .encode, reason: "PNG: cannot allocate a level-\(level) compressor")
            }
            self.compressor = compressor
        }

        deinit { libdeflate_free_compressor(compressor) }

        /// Runs `body` with a compressor at `level`, one an earlier encode gave back when there is
        /// one. A compressor is some 670 KB that libdeflate allocates whatever the input: made and
        /// freed for each of 100,000 tiny PNGs, those blocks came from the heap between the small
        /// records every job leaves, and the freed space stayed in the process (issue 54, item
        /// 14). Compressing keeps no state from one input to the next, so the bytes are the same.
        static func borrowing<Result>(level: Int, _ body: (Compressor) throws(TesseraError) -> Result) throws(TesseraError) -> Result {
            let compressor: Compressor
            if let kept = spare.withLock({ $0[level]?.popLast() }) { compressor = kept } else { compressor = try Compressor(level: level) }
            defer {
                spare.withLock { spare in
                    if spare[level, default: []].count < maxSpare { spare[level, default: []].append(compressor) }
                }
            }
            return try body(compressor)
        }

        /// Compressors given back, by level: at most `maxSpare` of each (as many as encodes run at
        /// once, on any machine this runs on; more are freed).
        private static let spare = Mutex<[Int: [Compressor]]>([:])
        private static let maxSpare = 16

        /// The most bytes `count` input bytes can take compressed.
        func bound(_ count: Int) -> Int { libdeflate_zlib_compress_bound(compressor, count) }

        /// Compresses `input` into `output` (at least `bound(input.count)` bytes); the bytes written.
        /// The bound is libdeflate's own worst case, so zero means a broken library.
        func compress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
            libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
        }

        static let failure = TesseraError(.internalFailure, origin: .encode, reason: "PNG: libdeflate could not compress the image data")
    }
}
