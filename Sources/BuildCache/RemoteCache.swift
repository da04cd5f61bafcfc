import Foundation
#if canImport(Glibc)
import Glibc
#endif
import NIOHTTP1
import Synchronization
import TesseraCore

/// A cache server speaking Bazel's HTTP remote-cache protocol: `GET/PUT/HEAD {base}/cas/<sha256>`
/// for blobs and `{base}/ac/<key>` for action entries, each a REAPI `ActionResult` carrying its
/// record and small outputs inline and naming larger outputs by CAS digest (`RemoteActionRecord`),
/// as any Bazel cache server requires.
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
    private let client: CacheServerClient
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
    public init(base: URL, readOnly: Bool = false, authorization: String? = nil, timeout: TimeInterval = 10,
                inlineLimit: Int = 64 << 10, storesPacks: Bool = true, authentication: EntryAuthentication? = nil) {
        self.authentication = authentication
        probeTimeout = timeout
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        self.base = URL(string: text) ?? base
        self.readOnly = readOnly
        self.inlineLimit = inlineLimit
        self.storesPacks = storesPacks
        client = CacheServerClient(timeout: timeout, connections: Self.connections, authorization: authorization)
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
        guard let stored = get("ac/\(key.hex)", limit: limit) else { return nil }
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
            guard let fetched = get("cas/\(hash.hex)", limit: size, missing: {
                // An entry naming a record blob the server lacks: damaged or half-deleted.
                self.fail("\(self.url("ac/\(key.hex)").absoluteString) names a record (cas/\(hash.hex)) the server does not have; not used")
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
        let address = url("cas/\(hash.hex)")
        state.withLock { $0.requests += 1 }
        let outcome: BlobDownload.Outcome
        do {
            outcome = try client.download(address, into: temporary.descriptor, limit: size)
        } catch {
            close(temporary.descriptor)
            unlink(temporary.path)
            fail("GET \(address.absoluteString) failed: \(error)", giveUp: error is BodyTooLong || error is TooSlow)
            return false
        }
        close(temporary.descriptor)
        switch outcome.status {
        case 200 where outcome.hash == hash && outcome.size == size && outcome.written:
            return BlobCopy.finish(temporary.path, ok: true, at: path)
        case 200 where !outcome.written:
            fail("could not write \(address.absoluteString) to \(temporaryFolder)")
        case 200:
            reportDamaged("cas/\(hash.hex)")
        case 404:
            break
        default:
            fail("GET \(address.absoluteString) answered HTTP \(outcome.status)")
        }
        unlink(temporary.path)
        return false
    }

    /// Downloads a result pack's segment, placing in `folder`'s store each blob of `needed` that
    /// matches its SHA-256 as its bytes arrive; the blobs placed. A damaged segment is reported.
    func fetchSegment(_ segment: ResultPack.Segment, keeping needed: Set<ContentHash>, into folder: CacheFolder) -> [ContentHash] {
        guard usable else { return [] }
        let address = url("cas/\(segment.sha256.hex)")
        state.withLock { $0.requests += 1 }
        let outcome: SegmentDownload.Outcome
        do {
            outcome = try client.receive(address, with: SegmentDownload(blobs: segment.blobs, keeping: needed, into: folder),
                                         carrying: segment.size)
        } catch {
            fail("GET \(address.absoluteString) failed: \(error)", giveUp: error is BodyTooLong || error is TooSlow)
            return []
        }
        switch outcome.status {
        case 200:
            if outcome.damaged { reportDamaged("cas/\(segment.sha256.hex)") }
            if outcome.unwritable { fail("could not write \(address.absoluteString) to \(folder.temporary)") }
        case 404:
            break
        default:
            fail("GET \(address.absoluteString) answered HTTP \(outcome.status)")
        }
        return outcome.placed
    }

    /// Whether the server has an entry under `key` (false when it failed).
    func hasAction(_ key: ContentHash) -> Bool {
        head("ac/\(key.hex)")
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
        return put("ac/\(key.hex)", RemoteActionRecord.encode(record: record, outputs: listed))
    }

    /// Uploads the file at `path` as the blob `hash` unless the server has it; false when it
    /// could not (the file does not match, the server failed). `hashed`: this run hashed that
    /// very file already, so it is not hashed again (readers check every blob anyway).
    func upload(_ hash: ContentHash, from path: String, hashed: Bool = false) -> Bool {
        guard usable else { return false }
        let size = FileStat(path: path).map { Int($0.size) } ?? Int.max
        if size > Self.putWithoutAsking, head("cas/\(hash.hex)") { return true }
        guard let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
              bytes.count == size, hashed || ContentHash.of(bytes) == hash else { return false }
        return put("cas/\(hash.hex)", bytes)
    }

    /// Uploads `bytes` as a blob unless the server has it.
    func upload(_ bytes: [UInt8], as hash: ContentHash) -> Bool {
        guard usable else { return false }
        if bytes.count > Self.putWithoutAsking, head("cas/\(hash.hex)") { return true }
        return put("cas/\(hash.hex)", bytes)
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

    /// Blobs up to this size are PUT without a HEAD first: asking costs a round trip of its own,
    /// about what sending them does, and a CAS PUT of bytes the server has is harmless.
    static let putWithoutAsking = 64 << 10

    /// Stores a record (a plan record, a pack) under `key`.
    func upload(entry: [UInt8], as key: ContentHash) -> Bool {
        !readOnly && putRecord(entry, under: key, outputs: [])
    }

    func reportDamaged(_ path: String) {
        fail("\(url(path).absoluteString) sent bytes that do not match their hash; not used")
    }

    /// Whether the server may be asked: not after `failureLimit` problems, nor when it could not
    /// be reached at all (checked once, before the first request: a refused connection or an
    /// unknown host is one immediate warning, not a timeout per lookup).
    private var usable: Bool {
        reachability.withLock { checked in
            guard !checked else { return }
            checked = true
            if let problem = ServerProbe.problem(reaching: base, timeout: probeTimeout) {
                fail("connecting to \(base.absoluteString) failed (\(problem))", giveUp: true)
            }
        }
        return state.withLock { $0.failures < Self.failureLimit }
    }
    private let reachability = Mutex(false)

    private func url(_ path: String) -> URL { base.appendingPathComponent(path) }

    /// `missing` runs on a 404 (by default: nothing, an absent entry is a plain miss).
    private func get(_ path: String, limit: Int = RemoteCache.entryLimit, missing: () -> Void = {}) -> [UInt8]? {
        guard usable, let (status, body) = send(.GET, path, body: nil, limit: limit) else { return nil }
        switch status {
        case 200: return body
        case 404:
            missing()
            return nil
        default:
            fail("GET \(url(path).absoluteString) answered HTTP \(status)")
            return nil
        }
    }

    private func head(_ path: String) -> Bool {
        guard usable, let (status, _) = send(.HEAD, path, body: nil, limit: Self.errorPageLimit) else { return false }
        return status == 200
    }

    private func put(_ path: String, _ bytes: [UInt8]) -> Bool {
        guard usable, let (status, _) = send(.PUT, path, body: bytes, limit: Self.errorPageLimit) else { return false }
        guard (200..<300).contains(status) else {
            fail("PUT \(url(path).absoluteString) answered HTTP \(status)")
            return false
        }
        return true
    }

    /// One request, waited for; nil (and a failure counted) on a transport error or timeout.
    private func send(_ method: HTTPMethod, _ path: String, body: [UInt8]?, limit: Int) -> (Int, [UInt8])? {
        state.withLock { $0.requests += 1 }
        do {
            let answer = try client.send(method, url(path), body: body, limit: limit)
            return (answer.status, answer.body)
        } catch let error as TooSlow {
            // A server that drips its answers holds every lookup: not asked again.
            fail("\(method.rawValue) \(url(path).absoluteString) failed: \(error)", giveUp: true)
            return nil
        } catch let error as BodyTooLong {
            // A server that sends more than an answer can be is broken or hostile: not asked again.
            fail("\(method.rawValue) \(url(path).absoluteString) failed: \(error)", giveUp: true)
            return nil
        } catch {
            fail("\(method.rawValue) \(url(path).absoluteString) failed: \(error)")
            return nil
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
