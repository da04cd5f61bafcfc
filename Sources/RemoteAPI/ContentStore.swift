import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import TesseraCore
import REAPIMessages

/// A server's content-addressable storage: which blobs it lacks, storing blobs (small ones
/// batched, large ones streamed through ByteStream `Write` in 1 MiB pieces) and reading them
/// (batched into memory, or streamed through ByteStream `Read` at bounded memory).
///
/// Reads hand back what arrived with the SHA-256 it hashed to; callers decide what a mismatch
/// means (the cache: a miss and a warning).
package struct ContentStore: Sendable {
    package let connection: RemoteConnection
    /// The size of a ByteStream `Write` piece.
    package static let chunkSize = 1 << 20

    package init(connection: RemoteConnection) {
        self.connection = connection
    }

    private var cas: Build_Bazel_Remote_Execution_V2_ContentAddressableStorage.Client<RemoteConnection.Transport> {
        .init(wrapping: connection.client)
    }
    private var byteStream: Google_Bytestream_ByteStream.Client<RemoteConnection.Transport> {
        .init(wrapping: connection.client)
    }

    /// The digests of `digests` the server does not have (asked in batches of 10,000).
    package func findMissing(_ digests: [REAPIDigest]) async throws(RemoteCallError) -> [REAPIDigest] {
        try await RemoteThreads.run {
            var missing: [REAPIDigest] = []
            for start in stride(from: 0, to: digests.count, by: 10_000) {
                var request = Build_Bazel_Remote_Execution_V2_FindMissingBlobsRequest()
                request.instanceName = connection.endpoint.instance
                request.blobDigests = Array(digests[start..<min(start + 10_000, digests.count)])
                request.digestFunction = .sha256
                do {
                    missing += try await cas.findMissingBlobs(request, metadata: connection.metadata,
                                                              options: connection.options()).missingBlobDigests
                } catch {
                    throw RemoteCallError("FindMissingBlobs", error)
                }
            }
            return missing
        }
    }

    /// Stores the blobs the server lacks: `FindMissingBlobs` first, then the missing ones.
    package func uploadMissing(_ blobs: [BlobUpload]) async throws(RemoteCallError) {
        guard !blobs.isEmpty else { return }
        let missing = Set(try await findMissing(blobs.map(\.digest)).map(\.hash))
        var seen: Set<String> = []
        try await upload(blobs.filter { missing.contains($0.digest.hash) && seen.insert($0.digest.hash).inserted })
    }

    /// Stores every blob given: those that fit a batch in `BatchUpdateBlobs` requests, the rest
    /// through ByteStream. Throws on the first that fails (a per-blob status too).
    package func upload(_ blobs: [BlobUpload]) async throws(RemoteCallError) {
        let limits = try await connection.serverLimits()
        var batch: [BlobUpload] = []
        var batchBytes = 0
        for blob in blobs {
            let cost = blob.size + ServerLimits.perBlobOverhead
            guard cost <= limits.batchBytes else {
                try await write(blob)
                continue
            }
            if batchBytes + cost > limits.batchBytes {
                try await updateBatch(batch)
                batch = []
                batchBytes = 0
            }
            batch.append(blob)
            batchBytes += cost
        }
        try await updateBatch(batch)
    }

    private func updateBatch(_ blobs: [BlobUpload]) async throws(RemoteCallError) {
        try await RemoteThreads.run {
            guard !blobs.isEmpty else { return }
            var request = Build_Bazel_Remote_Execution_V2_BatchUpdateBlobsRequest()
            request.instanceName = connection.endpoint.instance
            request.digestFunction = .sha256
            var bytes = 0
            for blob in blobs {
                var entry = Build_Bazel_Remote_Execution_V2_BatchUpdateBlobsRequest.Request()
                entry.digest = blob.digest
                switch blob.source {
                case .bytes(let data): entry.data = data
                case .file(let path):
                    guard let data = FileManager.default.contents(atPath: path), data.count == blob.size else {
                        throw RemoteCallError("cannot read \(path) (\(blob.size) bytes) to upload")
                    }
                    entry.data = data
                }
                bytes += blob.size
                request.requests.append(entry)
            }
            let response: Build_Bazel_Remote_Execution_V2_BatchUpdateBlobsResponse
            do {
                response = try await cas.batchUpdateBlobs(request, metadata: connection.metadata, options: connection.options(carrying: bytes))
            } catch {
                throw RemoteCallError("BatchUpdateBlobs", error)
            }
            if let refused = response.responses.first(where: { $0.status.code != 0 }) {
                throw RemoteCallError("BatchUpdateBlobs refused blob \(refused.digest.hash)/\(refused.digest.sizeBytes): "
                                      + "status \(refused.status.code) \(refused.status.message)",
                                      code: RemoteCallError.code(refused.status.code))
            }
        }
    }

    /// Streams one blob through ByteStream `Write` (`{instance/}uploads/{uuid}/blobs/{hash}/{size}`).
    package func write(_ blob: BlobUpload) async throws(RemoteCallError) {
        try await RemoteThreads.run {
            let resource = "\(connection.resourcePrefix)uploads/\(UUID().uuidString.lowercased())/blobs/\(blob.digest.hash)/\(blob.digest.sizeBytes)"
            let size = blob.size
            let source = blob.source
            let response: Google_Bytestream_WriteResponse
            do {
                response = try await byteStream.write(metadata: connection.metadata, options: connection.options(carrying: size)) { writer in
                    var piece = Google_Bytestream_WriteRequest()
                    piece.resourceName = resource
                    var offset = 0
                    func send(_ data: Data) async throws {
                        piece.writeOffset = Int64(offset)
                        piece.data = data
                        offset += data.count
                        piece.finishWrite = offset >= size
                        try await writer.write(piece)
                        piece.resourceName = ""
                    }
                    switch source {
                    case .bytes(let data):
                        var start = data.startIndex
                        repeat {
                            let end = min(start + Self.chunkSize, data.endIndex)
                            try await send(data[start..<end])
                            start = end
                        } while start < data.endIndex
                    case .file(let path):
                        guard let handle = FileHandle(forReadingAtPath: path) else {
                            throw RemoteCallError("cannot open \(path) to upload")
                        }
                        defer { try? handle.close() }
                        repeat {
                            let data = try handle.read(upToCount: Self.chunkSize) ?? Data()
                            guard !data.isEmpty || size == 0 else { throw RemoteCallError("\(path) is shorter than \(size) bytes") }
                            try await send(data)
                        } while offset < size
                    }
                }
            } catch {
                throw RemoteCallError("ByteStream Write of \(blob.digest.hash)/\(size)", error)
            }
            // A server that already had the blob may answer early with its whole size: both are stored.
            guard response.committedSize == Int64(size) || response.committedSize == -1 else {
                throw RemoteCallError("ByteStream Write of \(blob.digest.hash)/\(size) committed \(response.committedSize) bytes")
            }
        }
    }

    /// The blobs of `digests` the server has, each as it arrived (callers check the hash: `ContentHash.of`);
    /// absent ones are left out. All of them together must fit a batch (`ServerLimits.batchBytes`).
    package func read(_ digests: [REAPIDigest]) async throws(RemoteCallError) -> [REAPIDigest: Data] {
        try await RemoteThreads.run {
            guard !digests.isEmpty else { return [:] }
            var request = Build_Bazel_Remote_Execution_V2_BatchReadBlobsRequest()
            request.instanceName = connection.endpoint.instance
            request.digests = digests
            request.digestFunction = .sha256
            let bytes = digests.reduce(0) { $0 + Int($1.sizeBytes) }
            let response: Build_Bazel_Remote_Execution_V2_BatchReadBlobsResponse
            do {
                response = try await cas.batchReadBlobs(request, metadata: connection.metadata, options: connection.options(carrying: bytes))
            } catch {
                throw RemoteCallError("BatchReadBlobs", error)
            }
            var found: [REAPIDigest: Data] = [:]
            for answer in response.responses {
                switch answer.status.code {
                case 0: found[answer.digest] = answer.data
                case Int32(Status.Code.notFound.rawValue): continue
                default:
                    throw RemoteCallError("BatchReadBlobs of \(answer.digest.hash): status \(answer.status.code) \(answer.status.message)",
                                          code: RemoteCallError.code(answer.status.code))
                }
            }
            return found
        }
    }

    /// Streams a blob into the file at `path` (written beside it and renamed into place), checked
    /// against its digest; false when the server does not have it. Throws when the bytes do not
    /// match the digest (nothing is left at `path` then) or the file cannot be written.
    package func download(_ digest: REAPIDigest, to path: String) async throws(RemoteCallError) -> Bool {
        let partial = "\(path).partial-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial) else {
            throw RemoteCallError("cannot write \(partial)")
        }
        let sink = FileSink(handle)
        let reading: Reading?
        do {
            reading = try await stream(digest) { sink.write($0) }
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
        try? handle.close()
        guard let reading else {
            try? FileManager.default.removeItem(atPath: partial)
            return false
        }
        guard sink.ok else {
            try? FileManager.default.removeItem(atPath: partial)
            throw RemoteCallError("cannot write \(partial)")
        }
        guard !reading.stopped, reading.hash.hex == digest.hash, Int64(reading.size) == digest.sizeBytes else {
            try? FileManager.default.removeItem(atPath: partial)
            throw RemoteCallError("blob \(digest.hash)/\(digest.sizeBytes): the bytes received do not match the digest")
        }
        try? FileManager.default.removeItem(atPath: path)
        do {
            try FileManager.default.moveItem(atPath: partial, toPath: path)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw RemoteCallError("cannot move \(partial) to \(path): \(error)")
        }
        return true
    }

    /// Where `download(_:to:)` writes the pieces as they come, one at a time.
    private final class FileSink: @unchecked Sendable {
        private let handle: FileHandle
        private(set) var ok = true
        init(_ handle: FileHandle) { self.handle = handle }
        func write(_ piece: UnsafeRawBufferPointer) -> Bool {
            do { try handle.write(contentsOf: Data(piece)) } catch { ok = false }
            return ok
        }
    }

    /// What a streamed read came to.
    package struct Reading: Sendable, Equatable {
        /// The SHA-256 of the bytes handed over, and how many there were.
        package var hash: ContentHash
        package var size: Int
        /// The receiver refused a piece (it could not write it, or it was past what it expected).
        package var stopped: Bool
    }

    /// Streams a blob through ByteStream `Read` (`{instance/}blobs/{hash}/{size}`), handing each
    /// piece to `receive` as it arrives (false stops the read); nil when the server does not have
    /// it. At most `digest.sizeBytes` bytes are accepted: a longer answer stops.
    package func stream(_ digest: REAPIDigest,
                        into receive: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool) async throws(RemoteCallError) -> Reading? {
        try await RemoteThreads.run {
            var request = Google_Bytestream_ReadRequest()
            request.resourceName = "\(connection.resourcePrefix)blobs/\(digest.hash)/\(digest.sizeBytes)"
            let limit = Int(digest.sizeBytes)
            do {
                return try await byteStream.read(request, metadata: connection.metadata,
                                                 options: connection.options(carrying: limit)) { response in
                    var hasher = ContentHasher()
                    var size = 0
                    for try await message in response.messages {
                        guard size + message.data.count <= limit else {
                            return Reading(hash: hasher.finalize(), size: size + message.data.count, stopped: true)
                        }
                        let accepted = message.data.withUnsafeBytes { bytes in
                            hasher.update(bytes)
                            return receive(bytes)
                        }
                        size += message.data.count
                        guard accepted else { return Reading(hash: hasher.finalize(), size: size, stopped: true) }
                    }
                    return Reading(hash: hasher.finalize(), size: size, stopped: false)
                }
            } catch let error as RPCError where error.code == .notFound {
                return nil
            } catch {
                throw RemoteCallError("ByteStream Read of \(digest.hash)/\(digest.sizeBytes)", error)
            }
        }
    }
}
