import CZlib
import TesseraCore

/// gzip (RFC 1952) through zlib, for manifests and query answers sent to clients that accept it.
/// zlib writes no timestamp or file name into the header, so the same input gives the same bytes.
public enum Gzip {
    public static func compress(_ input: [UInt8], level: Int32 = 9) throws(TesseraError) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16 asks zlib for the gzip wrapper instead of the zlib one.
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw TesseraError(.internalFailure, origin: .gzip, reason: "deflateInit2 failed")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        var input = input
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else {
            throw TesseraError(.internalFailure, origin: .gzip, reason: "deflate returned \(status)")
        }
        return Array(output.prefix(Int(stream.total_out)))
    }
}

extension Gzip {
    /// Inflates a gzip stream; for clients and tests. `limit` bounds the output.
    public static func decompress(_ input: [UInt8], limit: Int = 64 << 20) throws(TesseraError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw TesseraError(.internalFailure, origin: .gzip, reason: "inflateInit2 failed")
        }
        defer { inflateEnd(&stream) }
        var input = input
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while status == Z_OK && output.count <= limit {
                chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                }
                output.append(contentsOf: chunk.prefix(chunk.count - Int(stream.avail_out)))
                if status == Z_BUF_ERROR && stream.avail_in == 0 { break }
            }
        }
        guard status == Z_STREAM_END, output.count <= limit else {
            throw TesseraError(.invalidInput, origin: .gzip, reason: "not a complete gzip stream (zlib status \(status))")
        }
        return output
    }
}
