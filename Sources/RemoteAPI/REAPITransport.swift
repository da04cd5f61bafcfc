import BuildCache
import Foundation
import GRPCCore
import TesseraCore
import REAPIMessages
#if canImport(Glibc)
import Glibc
#endif

/// The remote cache over the Remote Execution API (gRPC): the same entries Bazel's HTTP protocol
/// stores, so a server that speaks both (bazel-remote) serves one protocol's entries to the other.
///
/// * `ac/<key>` is the action result under the digest `{hash: <key hex>, size_bytes: 32}`
///   (`actionDigest`); the `ActionResult` bytes are the very ones the HTTP path stores.
/// * `cas/<sha256>` is the CAS blob with that hash and its size.
/// * Storing an entry uploads every blob it names first, inline ones included: servers serve
///   an entry only when its output blobs are in the CAS (`NOT_FOUND` otherwise), and do not take
///   inline contents as present. An entry too large for one message goes without its inline
///   contents (readers then fetch the record from the CAS).
/// * Blobs up to the server's batch limit go in `BatchUpdateBlobs`/`BatchReadBlobs`, larger ones
///   through ByteStream; every upload asks `FindMissingBlobs` first.
package struct REAPITransport: CacheTransport {
    package let connection: RemoteConnection
    private let store: ContentStore
    private let actions: ActionCacheClient

    package init(connection: RemoteConnection) {
        self.connection = connection
        store = ContentStore(connection: connection)
        actions = ActionCacheClient(connection: connection)
    }

    /// The action digest an entry is stored under: the key's hex as the hash, and 32 (the key's
    /// own length in bytes) as the size. Not 0: bazel-remote refuses a zero size with any hash
    /// but the empty blob's; buildbox-casd and BuildGrid take any size and key on both.
    package static func actionDigest(_ key: ContentHash) -> REAPIDigest {
        REAPIDigest(key, size: 32)
    }

    package var address: String {
        let endpoint = connection.endpoint
        return "\(endpoint.usesTLS ? "grpcs" : "grpc")://\(endpoint.host):\(endpoint.port)"
            + (endpoint.instance.isEmpty ? "" : "/\(endpoint.instance)")
    }

    package func describe(_ path: String) -> String { "\(address)/\(path)" }

    package func problem(timeout: Double) -> String? {
        let endpoint = connection.endpoint
        if let url = URL(string: "http://\(endpoint.host):\(endpoint.port)"),
           let problem = ServerProbe.problem(reaching: url, timeout: timeout) {
            return "connecting to \(address) failed (\(problem))"
        }
        do {
            _ = try RemoteConnection.wait { () async throws(RemoteCallError) in try await connection.serverLimits() }
            return nil
        } catch {
            return "\(address) cannot be used: \(error.description)"
        }
    }

    /// Every store asks `FindMissingBlobs` first: it costs one call, and a batch or a stream of
    /// bytes the server has is not free.
    package var storesWithoutAsking: Int { 0 }

    package func read(_ resource: CacheResource, limit: Int) throws(TransportFailure) -> [UInt8]? {
        switch resource {
        case .action(let key):
            let result = try call { () async throws(RemoteCallError) in try await actions.result(for: Self.actionDigest(key)) }
            guard let result else { return nil }
            guard let bytes = try? result.serializedBytes() as [UInt8] else {
                throw TransportFailure("\(describe(resource.path)): the action result could not be encoded")
            }
            guard bytes.count <= limit else {
                throw TransportFailure("\(describe(resource.path)) is \(bytes.count) bytes, more than an entry can be (\(limit))", giveUp: true)
            }
            return bytes
        case .blob(let hash, let size):
            let digest = REAPIDigest(hash, size: size)
            let limits = try call { () async throws(RemoteCallError) in try await connection.serverLimits() }
            if size + ServerLimits.perBlobOverhead <= limits.batchBytes {
                let found = try call { () async throws(RemoteCallError) in try await store.read([digest]) }
                return found[digest].map { [UInt8]($0) }
            }
            let collected = Collected()
            let reading = try call { () async throws(RemoteCallError) in
                try await store.stream(digest) { piece in collected.append(piece) }
            }
            guard let reading else { return nil }
            guard !reading.stopped else {
                throw TransportFailure("\(describe(resource.path)) sent more than its \(size) bytes", giveUp: true)
            }
            return collected.bytes
        }
    }

    package func contains(_ resource: CacheResource) throws(TransportFailure) -> Bool {
        switch resource {
        case .action(let key):
            return try call { () async throws(RemoteCallError) in try await actions.result(for: Self.actionDigest(key)) } != nil
        case .blob(let hash, let size):
            let digest = REAPIDigest(hash, size: size)
            return try call { () async throws(RemoteCallError) in try await store.findMissing([digest]) }.isEmpty
        }
    }

    package func write(_ resource: CacheResource, _ body: BlobBody) throws(TransportFailure) -> Bool {
        switch resource {
        case .blob(let hash, let size):
            let source: BlobUpload.Source
            switch body {
            case .bytes(let bytes): source = .bytes(Data(bytes))
            case .file(let path, let expected, let check):
                // Checked before anything is sent, as the HTTP path does: a file changed since it
                // was hashed is not stored under the old hash.
                guard let stat = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, stat == expected,
                      check.map({ (try? ContentHash.ofFile(at: path)) == $0 }) ?? true else { return false }
                source = .file(path)
            }
            let upload = BlobUpload(digest: REAPIDigest(hash, size: size), source: source)
            try call { () async throws(RemoteCallError) in try await store.uploadMissing([upload]) }
            return true
        case .action(let key):
            guard case .bytes(let bytes) = body,
                  var stored = try? Build_Bazel_Remote_Execution_V2_ActionResult(serializedBytes: bytes) else {
                throw TransportFailure("\(describe(resource.path)): not an action result")
            }
            let inline = stored.outputFiles.filter { !$0.contents.isEmpty || $0.digest.sizeBytes == 0 }
                .map { BlobUpload(digest: $0.digest, source: .bytes($0.contents)) }
            let digest = Self.actionDigest(key)
            // A message past the server's limit would be refused: the blobs are in the CAS.
            if bytes.count + ServerLimits.headroom > ServerLimits.messageLimit {
                for index in stored.outputFiles.indices { stored.outputFiles[index].contents = Data() }
            }
            let result = stored
            try call { () async throws(RemoteCallError) in
                let limits = try await connection.serverLimits()
                guard limits.updatesActionCache else {
                    throw RemoteCallError("the server does not allow action cache updates (UpdateActionResult)")
                }
                try await store.uploadMissing(inline)
                try await actions.store(result, for: digest)
            }
            return true
        }
    }

    package func download(_ hash: ContentHash, size: Int, into descriptor: Int32) throws(TransportFailure) -> BlobReceipt? {
        let written = WriteState()
        let reading = try call { () async throws(RemoteCallError) in
            try await store.stream(REAPIDigest(hash, size: size)) { piece in
                written.ok = written.ok && BlobCopy.writeAll(piece, to: descriptor)
                return written.ok
            }
        }
        guard let reading else { return nil }
        if reading.stopped, written.ok {
            throw TransportFailure("\(describe("cas/\(hash.hex)")) sent more than its \(size) bytes", giveUp: true)
        }
        return BlobReceipt(hash: reading.hash, size: reading.size, written: written.ok)
    }

    package func receive(_ segment: ContentHash, into receiver: SegmentReceiver) throws(TransportFailure) -> SegmentReceiver.Outcome? {
        receiver.begin()
        let reading: ContentStore.Reading?
        do {
            reading = try call { () async throws(RemoteCallError) in
                try await store.stream(REAPIDigest(segment, size: receiver.size)) { piece in receiver.receive(piece) }
            }
        } catch {
            receiver.abandon()
            throw error
        }
        guard reading != nil else {
            receiver.abandon()
            return nil
        }
        return receiver.end()
    }

    /// Runs one client call, blocking this thread; its failure in the warning's words. A server
    /// that refuses the credentials or the method will refuse every later call too.
    private func call<T: Sendable>(_ body: @escaping @Sendable () async throws(RemoteCallError) -> T) throws(TransportFailure) -> T {
        do {
            return try RemoteConnection.wait(body)
        } catch {
            let hopeless: [RPCError.Code] = [.unauthenticated, .permissionDenied, .unimplemented]
            throw TransportFailure("\(address): \(error.description)", giveUp: error.code.map(hopeless.contains) ?? false)
        }
    }

    /// A ByteStream read's pieces collected (only for a blob read whole: a record, bounded by its size).
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var collected: [UInt8] = []
        func append(_ piece: UnsafeRawBufferPointer) -> Bool {
            lock.withLock { collected.append(contentsOf: piece) }
            return true
        }
        var bytes: [UInt8] { lock.withLock { collected } }
    }

    /// Whether every piece of a download reached its file (pieces arrive one at a time).
    private final class WriteState: @unchecked Sendable {
        private let lock = NSLock()
        private var value = true
        var ok: Bool {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }
}
