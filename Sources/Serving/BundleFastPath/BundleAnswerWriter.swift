import NIOCore
import PublishedBuilds

/// Writes one bundle answer for `BundleConnectionHandler`, at the head of the pipeline: its head
/// (`BlobAnswer`, `BlobAnswerHead`), then its body from a `pread` into the same buffer and, for a
/// body over `bufferedBodyLimit`, the rest from the file with `sendfile`; and its request-log line.
struct BundleAnswerWriter {
    /// Bodies up to this size leave in one buffer with their head: copying them costs less than
    /// a second system call.
    static let bufferedBodyLimit = 16 << 10

    /// How much of a larger body, head included, leaves in the head's buffer before the rest
    /// follows from the file with `sendfile`. Never the head alone: as a TCP segment of its own
    /// it cost the receiver as much as a full one. Measured on loopback with wrk (system CPU time
    /// per request, `Benchmarks/serve.sh`): a 0.6 MB bundle cost 225 µs with 64 KiB in the first
    /// write, 310–450 µs with 32–48 KiB, 420 µs with 4 KiB; a 64 KiB range 43.7 µs with 4 KiB,
    /// 45.0 µs with all of it in the buffer.
    static func firstWriteLimit(body: Int) -> Int { body > 128 << 10 ? 64 << 10 : 4 << 10 }

    let serverName: String
    let log: BundleRequestLog

    /// Writes the whole answer to `request` (not flushed); false, with nothing written, when the
    /// blob's bytes cannot be read.
    func write(_ request: BundleRequest, blob: OpenBlob, context: ChannelHandlerContext) -> Bool {
        let start = ContinuousClock.now
        let answer = BlobAnswer(digest: request.hex, size: blob.size, isHead: request.isHead, ifNoneMatch: request.ifNoneMatch,
                                range: request.range, ifRange: request.ifRange)
        let bodyCount = answer.body?.count ?? 0
        let fromFile = bodyCount > Self.bufferedBodyLimit
        let firstWrite = fromFile ? Self.firstWriteLimit(body: bodyCount) : 512 + bodyCount
        var buffer = context.channel.allocator.buffer(capacity: firstWrite)
        let connection: StaticString? = !request.keepsAlive ? "close" : request.isHTTP10 ? "keep-alive" : nil
        answer.writeHead(into: &buffer, http10: request.isHTTP10, date: HTTPDate.now(), server: serverName,
                         connection: connection)
        let inBuffer = fromFile ? max(0, min(bodyCount, firstWrite - buffer.readableBytes)) : bodyCount
        if let range = answer.body, inBuffer > 0 {
            guard BlobBody.append(blob, range: range.lowerBound...(range.lowerBound + inBuffer - 1), to: &buffer) else { return false }
        }
        if fromFile, let range = answer.body, inBuffer < bodyCount {
            context.write(NIOAny(IOData.byteBuffer(buffer)), promise: nil)
            // A handle of its own per answer: NIO marks a handle busy while it sends from it, and
            // one handle shared by connections on other event loops fails their writes (EBUSY).
            // It borrows `blob`'s descriptor, handed back (not closed) once the body has gone out.
            let file = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: blob.descriptor)
            let region = FileRegion(fileHandle: file, readerIndex: range.lowerBound + inBuffer, endIndex: range.upperBound + 1)
            let written = context.eventLoop.makePromise(of: Void.self)
            context.write(NIOAny(IOData.fileRegion(region)), promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in
                withExtendedLifetime(blob) { _ = try? file.takeDescriptorOwnership() }
                if !request.keepsAlive { context.close(promise: nil) }
            }
        } else if !request.keepsAlive {
            let written = context.eventLoop.makePromise(of: Void.self)
            context.write(NIOAny(IOData.byteBuffer(buffer)), promise: written)
            // Only once written: a close drops the writes still queued.
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        } else {
            context.write(NIOAny(IOData.byteBuffer(buffer)), promise: nil)
        }
        log.record(request, status: answer.status, bytes: answer.body?.count ?? 0, since: start)
        return true
    }
}
