import Hummingbird
import NIOCore
import PublishedBuilds

/// A response body of blob bytes, read with `pread` a chunk at a time and written with
/// back-pressure, so a download holds about one chunk plus the socket's write buffer in memory
/// however slow its client is.
///
/// Why the extra step: a write through Hummingbird's body writer returns once the chunk is
/// *queued* for the event loop, and the writer learns that the socket is full only when the
/// event loop has handled it. Reading ahead of that (as a file-chunk stream does) let every
/// busy connection queue most of a 17 MB bundle: 0.8 GB at 64 connections. After each chunk
/// the body waits for one trip through the connection's event loop; by then the channel has
/// taken the chunk and, when its buffer is over the high-water mark, the next write waits until
/// the client has caught up.
enum BlobBody {
    /// How much a streamed body reads and writes at a time.
    static let chunkLength = 128 << 10

    /// Bytes `range` of the blob in one buffer; nil when the read comes up short.
    static func bytes(of blob: OpenBlob, range: ClosedRange<Int>, allocator: ByteBufferAllocator) -> ByteBuffer? {
        var buffer = allocator.buffer(capacity: range.count)
        return append(blob, range: range, to: &buffer) ? buffer : nil
    }

    /// Appends bytes `range` of the blob to `buffer` (an answer's head, so both leave in one
    /// write); false, and `buffer` as it was, when the read comes up short.
    static func append(_ blob: OpenBlob, range: ClosedRange<Int>, to buffer: inout ByteBuffer) -> Bool {
        let complete = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: range.count) { raw in
            blob.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<range.count]), at: range.lowerBound)
                ? range.count : 0
        }
        return complete == range.count
    }

    /// Bytes `range` of the blob, streamed on `channel`.
    static func streaming(_ blob: OpenBlob, range: ClosedRange<Int>, channel: any Channel) -> ResponseBody {
        ResponseBody(contentLength: range.count) { writer in
            var offset = range.lowerBound
            while offset <= range.upperBound {
                let count = min(chunkLength, range.upperBound + 1 - offset)
                guard let chunk = bytes(of: blob, range: offset...(offset + count - 1), allocator: channel.allocator) else {
                    // The blob cannot shrink; a failing read is a disk error. Ending the body short
                    // (the connection closes) tells the client, which can resume with a range.
                    throw HTTPError(.internalServerError, message: "reading the blob failed")
                }
                try await writer.write(chunk)
                try await channel.eventLoop.submit {}.get()
                offset += count
            }
            try await writer.finish(nil)
        }
    }
}
