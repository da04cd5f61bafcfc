import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TesseraCore

/// A remote cache server: blobs by SHA-256, and action entries by job key, each a REAPI
/// `ActionResult` carrying its record and small outputs inline and naming larger outputs by CAS
/// digest (`RemoteActionRecord`), as any Bazel cache server requires. The server speaks Bazel's
/// HTTP remote-cache protocol (`BazelHTTPTransport`: `GET/PUT/HEAD {base}/cas/<sha256>` and
/// `{base}/ac/<key>`) or the Remote Execution API over gRPC (RemoteAPI's transport); this class
/// holds the policy, the transport moves the bytes (`CacheTransport`).
///
/// Every blob downloaded is checked against its SHA-256 and every entry against its own hash;
/// blobs are uploaded before the entry naming them, so a reader never finds an entry whose blobs
/// are not there yet. Any error, timeout or wrong answer is a miss with one warning per run, and
/// after `failureLimit` of them the server is left alone for the rest of the run, so a dead server
/// costs a few timeouts, never the build.
public final class RemoteCache: Sendable {
    public let base: URL
    public let readOnly: Bool
    /// Outputs up to this size travel inside the entries this cache uploads (0: none).
    public let inlineLimit: Int
    /// Whether a complete build also stores its `ResultPack` (readers use packs either way).
    public let storesPacks: Bool
    /// With a key, entries are MACed when stored and believed only with a valid MAC.
    public let authentication: EntryAuthentication?
    private let probeTimeout: TimeInterval
    static let failureLimit = 3
    private let transport: any CacheTransport
    private let state = Mutex<State>(State())
    /// Where a finished job's uploads run, `uploadConcurrency` at a time, so they overlap the
    /// jobs after it instead of holding its worker thread (issue 28).
    private let uploads: OperationQueue
    private let uploadsPending = DispatchGroup()
    static let uploadConcurrency = 4

    private struct State {
        var failures = 0
        var warning: String?
        var requests = 0
        var storedKeys: Set<ContentHash> = []
        var unauthenticated = 0
    }

    /// The job keys whose entries this client stored (for `RemoteKeyIndex`).
    var storedEntryKeys: Set<ContentHash> { state.withLock { $0.storedKeys } }

    /// How many requests this client has sent (a fresh clone should need a few dozen, not one per job).
    public var requestCount: Int { state.withLock { $0.requests } }

    /// `authorization` is a whole `Authorization` header value (`Bearer …`, `Basic …`).
    /// `inlineLimit`: outputs up to this size travel inside the entries uploaded, so a hit on them
    /// needs one request instead of two (their blobs are uploaded too, for older readers).
    /// `storesPacks`: a complete build also stores its results as one pack (`ResultPack`).
    /// `authentication`: entries are MACed and checked (`TESSERA_REMOTE_CACHE_KEY`).
    /// `headers`: more HTTP headers every request carries (`--remote-header`).
    public convenience init(base: URL, readOnly: Bool = false, authorization: String? = nil, headers: [String: String] = [:],
                            timeout: TimeInterval = 10, inlineLimit: Int = 64 << 10, storesPacks: Bool = true,
                            authentication: EntryAuthentication? = nil) {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        let base = URL(string: text) ?? base
        self.init(transport: BazelHTTPTransport(base: base, authorization: authorization, headers: headers, timeout: timeout,
                                                connections: Self.connections),
                  base: base, readOnly: readOnly, timeout: timeout, inlineLimit: inlineLimit, storesPacks: storesPacks,
                  authentication: authentication)
    }

    /// A cache on any transport (`CacheTransport`); `base` is the server's address as a URL
    /// (`grpc://host:port`), `timeout` how long its reachability check may take.
    package init(transport: any CacheTransport, base: URL, readOnly: Bool = false, timeout: TimeInterval = 10,
                 inlineLimit: Int = 64 << 10, storesPacks: Bool = true, authentication: EntryAuthentication? = nil) {
        self.transport = transport
        self.authentication = authentication
        probeTimeout = timeout
        self.base = base
        self.readOnly = readOnly
        self.inlineLimit = inlineLimit
        self.storesPacks = storesPacks
        uploads = OperationQueue()
        uploads.name = "tessera.remote-cache.uploads"
        uploads.maxConcurrentOperationCount = Self.uploadConcurrency
    }

    /// Runs `work` on the upload threads; `waitForUploads()` waits for it and the rest.
    func inBackground(_ work: @escaping @Sendable () -> Void) {
        uploadsPending.enter()
        let pending = uploadsPending
        uploads.addOperation {
            work()
            pending.leave()
        }
    }

    /// Waits until every upload started so far has finished (or failed into a warning): a run
    /// ends, and its plan record and pack go up, only after the entries they rely on.
    public func waitForUploads() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            uploadsPending.notify(queue: .global()) { continuation.resume() }
        }
    }

    /// As many connections as the cache's lookup threads can keep busy.
    static let connections = 16

    /// The `Authorization` header from the environment: `TESSERA_REMOTE_CACHE_TOKEN` (Bearer), or
    /// `TESSERA_REMOTE_CACHE_USER` and `TESSERA_REMOTE_CACHE_PASSWORD` (Basic); nil when neither is set.
    public static func authorization(from environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let token = environment["TESSERA_REMOTE_CACHE_TOKEN"], !token.isEmpty { return "Bearer \(token)" }
        if let user = environment["TESSERA_REMOTE_CACHE_USER"], !user.isEmpty {
            let password = environment["TESSERA_REMOTE_CACHE_PASSWORD"] ?? ""
            return "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        }
        return nil
    }

    /// The one warning of the run, if anything went wrong; and how many entries were refused for
    /// lacking a valid MAC.
    public var warnings: [String] {
        state.withLock { state in
            var warnings = state.warning.map { [$0] } ?? []
            if state.unauthenticated > 0 {
                warnings.append("remote cache: \(state.unauthenticated) entries carried no valid MAC for TESSERA_REMOTE_CACHE_KEY; treated as misses (written without the key, or by someone else)")
            }
            return warnings
        }
    }

    /// The record stored under `key`, or nil (absent, or the server failed). An entry an older
    /// Tessera stored (the record itself) is returned as it is.
    func action(_ key: ContentHash, limit: Int = RemoteCache.entryLimit) -> [UInt8]? {
        entry(key, limit: limit)?.record
    }

    /// The record stored under `key` and the output bytes the entry carries inline (by SHA-256),
    /// or nil (absent, or the server failed).
    /// `limit`: the most the answer may be (a job's entry, unless the record is a plan, a pack or the
    /// key index: `action`).
    func entry(_ key: ContentHash, limit: Int = RemoteCache.jobEntryLimit) -> (record: [UInt8], contents: [ContentHash: [UInt8]])? {
        guard let stored = get(.action(key), limit: limit) else { return nil }
        let reading = RemoteActionRecord.read(stored)
        let record: [UInt8]
        switch reading.record {
        case .inline(let inline): record = inline
        case .legacy:
            guard authentication == nil else { return refuseUnauthenticated() }
            return (stored, [:])
        case .damaged:
            reportDamaged("ac/\(key.hex)")
            return nil
        case .blob(let hash, let size):
            guard let fetched = get(.blob(hash, size: size), limit: size, missing: {
                // An entry naming a record blob the server lacks: damaged or half-deleted.
                self.fail("\(self.transport.describe("ac/\(key.hex)")) names a record (cas/\(hash.hex)) the server does not have; not used")
            }) else { return nil }
            guard fetched.count == size, ContentHash.of(fetched) == hash else {
                reportDamaged("cas/\(hash.hex)")
                return nil
            }
            record = fetched
        }
        if let authentication, !authentication.accepts(reading.mac, of: record, under: key) { return refuseUnauthenticated() }
        return (record, reading.contents)
    }

    private func refuseUnauthenticated() -> (record: [UInt8], contents: [ContentHash: [UInt8]])? {
        state.withLock { $0.unauthenticated += 1 }
        return nil
    }

    /// Downloads the blob with this SHA-256 to `path` (through a temporary file in
    /// `temporaryFolder` and a rename) if the server has it and it matches; false otherwise.
    func fetchBlob(_ hash: ContentHash, size: Int, to path: String, temporaryFolder: String) -> Bool {
        guard usable, let temporary = BlobCopy.makeTemporary(in: temporaryFolder) else { return false }
        state.withLock { $0.requests += 1 }
        let receipt: BlobReceipt?
        do {
            receipt = try transport.download(hash, size: size, into: temporary.descriptor)
        } catch {
            close(temporary.descriptor)
            unlink(temporary.path)
            fail(error.text, giveUp: error.giveUp)
            return false
        }
        close(temporary.descriptor)
        if let receipt {
            if receipt.hash == hash, receipt.size == size, receipt.written {
                return BlobCopy.finish(temporary.path, ok: true, at: path)
            } else if !receipt.written {
                fail("could not write \(transport.describe("cas/\(hash.hex)")) to \(temporaryFolder)")
            } else {
                reportDamaged("cas/\(hash.hex)")
            }
        }
        unlink(temporary.path)
        return false
    }

    /// Downloads a result pack's segment, placing in `folder`'s store each blob of `needed` that
    /// matches its SHA-256 as its bytes arrive; the blobs placed. A damaged segment is reported.
    func fetchSegment(_ segment: ResultPack.Segment, keeping needed: Set<ContentHash>, into folder: CacheFolder) -> [ContentHash] {
        guard usable else { return [] }
        state.withLock { $0.requests += 1 }
        let outcome: SegmentReceiver.Outcome?
        do {
            outcome = try transport.receive(segment.sha256, into: SegmentReceiver(blobs: segment.blobs, keeping: needed, into: folder))
        } catch {
            fail(error.text, giveUp: error.giveUp)
            return []
        }
        guard let outcome else { return [] }
        if outcome.damaged { reportDamaged("cas/\(segment.sha256.hex)") }
        if outcome.unwritable { fail("could not write \(transport.describe("cas/\(segment.sha256.hex)")) to \(folder.temporary)") }
        return outcome.placed
    }

    /// Whether the server has an entry under `key` (false when it failed).
    func hasAction(_ key: ContentHash) -> Bool {
        head(.action(key))
    }

    /// Uploads the blobs the server lacks, then the entry, listing `outputs` (the small ones
    /// inline); nothing when read-only.
    func upload(key: ContentHash, record: [UInt8], outputs: [RemoteActionRecord.Output],
                blobs: [(ContentHash, String)], hashed: Bool = false) {
        guard !readOnly else { return }
        for (hash, path) in blobs {
            guard upload(hash, from: path, hashed: hashed) else { return }
        }
        if putRecord(record, under: key, outputs: outputs) { state.withLock { _ = $0.storedKeys.insert(key) } }
    }

    /// The `ActionResult` carrying the record inline: one request, and a reader that finds the
    /// entry has the record.
    private func putRecord(_ record: [UInt8], under key: ContentHash, outputs: [RemoteActionRecord.Output]) -> Bool {
        var listed = outputs
        if let authentication {
            let mac = authentication.mac(of: record, under: key)
            listed.append(RemoteActionRecord.Output(path: RemoteActionRecord.macPath, sha256: ContentHash.of(mac),
                                                    size: mac.count, contents: mac))
        }
        return put(.action(key), .bytes(RemoteActionRecord.encode(record: record, outputs: listed)))
    }

    /// Uploads the file at `path` as the blob `hash` unless the server has it; false when it
    /// could not (the file does not match, the server failed). `hashed`: this run hashed that
    /// very file already, so it is not hashed again (readers check every blob anyway).
    func upload(_ hash: ContentHash, from path: String, hashed: Bool = false) -> Bool {
        guard usable else { return false }
        let size = FileStat(path: path).map { Int($0.size) } ?? Int.max
        if size > transport.storesWithoutAsking, head(.blob(hash, size: size)) { return true }
        return put(.blob(hash, size: size), .file(path, size: size, hash: hashed ? nil : hash))
    }

    /// Uploads `bytes` as a blob unless the server has it.
    func upload(_ bytes: [UInt8], as hash: ContentHash) -> Bool {
        guard usable else { return false }
        if bytes.count > transport.storesWithoutAsking, head(.blob(hash, size: bytes.count)) { return true }
        return put(.blob(hash, size: bytes.count), .bytes(bytes))
    }

    /// The most an `/ac/` answer may be: a record (a result pack's is at most
    /// `ResultPack.recordLimit`) and the inline outputs of a job (at most `ActionEntry.inlineTotal`),
    /// with the `ActionResult`'s framing. A longer answer is stopped there.
    static let entryLimit = ResultPack.recordLimit + ActionEntry.inlineTotal + (1 << 20)
    /// The most a job's entry may be: its inline outputs and its record (the job's result: a few
    /// hundred bytes, the manifest job's the whole manifest). Job lookups run 16 at a time, so
    /// this, not `entryLimit`, bounds what a server sending without end can make a build hold.
    static let jobEntryLimit = ActionEntry.inlineTotal + (7 << 20)
    /// The most a plan record may be (about 140 bytes a job: 16 MiB is some 100,000 jobs). A
    /// run's first request is for its plan record, so this is what a server sending without end
    /// costs before it is left alone.
    static let planRecordLimit = 16 << 20
    /// The most the key index may be: 262,144 keys of 12 bytes and the packs they name.
    static let keyIndexLimit = 16 << 20
    /// What an answer without a body we read may carry (a PUT's or HEAD's error page).
    static let errorPageLimit = 1 << 20

    /// Stores a record (a plan record, a pack) under `key`.
    func upload(entry: [UInt8], as key: ContentHash) -> Bool {
        !readOnly && putRecord(entry, under: key, outputs: [])
    }

    func reportDamaged(_ path: String) {
        fail("\(transport.describe(path)) sent bytes that do not match their hash; not used")
    }

    /// Whether the server may be asked: not after `failureLimit` problems, nor when it could not
    /// be reached at all (checked once, before the first request: a refused connection or an
    /// unknown host is one immediate warning, not a timeout per lookup).
    private var usable: Bool {
        reachability.withLock { checked in
            guard !checked else { return }
            checked = true
            if let problem = transport.problem(timeout: probeTimeout) { fail(problem, giveUp: true) }
        }
        return state.withLock { $0.failures < Self.failureLimit }
    }
    private let reachability = Mutex(false)

    /// `missing` runs when the server does not have it (by default: nothing, an absent entry is a plain miss).
    private func get(_ resource: CacheResource, limit: Int = RemoteCache.entryLimit, missing: () -> Void = {}) -> [UInt8]? {
        guard usable else { return nil }
        state.withLock { $0.requests += 1 }
        do {
            guard let bytes = try transport.read(resource, limit: limit) else {
                missing()
                return nil
            }
            return bytes
        } catch {
            fail(error.text, giveUp: error.giveUp)
            return nil
        }
    }

    private func head(_ resource: CacheResource) -> Bool {
        guard usable else { return false }
        state.withLock { $0.requests += 1 }
        do {
            return try transport.contains(resource)
        } catch {
            fail(error.text, giveUp: error.giveUp)
            return false
        }
    }

    private func put(_ resource: CacheResource, _ body: BlobBody) -> Bool {
        guard usable else { return false }
        do {
            let sent = try transport.write(resource, body)
            // A file that could not be read or did not match was never sent.
            if sent { state.withLock { $0.requests += 1 } }
            return sent
        } catch {
            state.withLock { $0.requests += 1 }
            fail(error.text, giveUp: error.giveUp)
            return false
        }
    }

    private func fail(_ text: String, giveUp: Bool = false) {
        state.withLock {
            $0.failures = giveUp ? max($0.failures, Self.failureLimit) : $0.failures + 1
            if $0.warning == nil {
                $0.warning = "remote cache: \(text); treated as a miss"
                    + (giveUp ? " (the remote cache is not used for the rest of this run)"
                        : " (the remote cache is skipped after \(Self.failureLimit) such problems)")
            }
        }
    }
}
