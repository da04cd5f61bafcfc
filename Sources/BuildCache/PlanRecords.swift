import Foundation
import JobEngine
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

extension BuildCache {
    /// Plan records kept locally; older ones are removed (one is written per input tree, so a
    /// long-lived cache would otherwise keep one per commit).
    static let localPlanLimit = 16

    /// The record under `key`: the local one, else the remote cache's (then kept locally). A
    /// damaged record is removed (locally) or reported (remotely) and counts as absent.
    public func record(_ key: ContentHash) -> [UInt8]? {
        let path = folder.plan(key)
        if let bytes = BlobCopy.read(path) {
            if let body = CheckedRecord.body(of: bytes) {
                FileStat.touch(path)
                return Array(body)
            }
            unlink(path)
        }
        guard let remote, let bytes = remote.action(key, limit: RemoteCache.planRecordLimit) else { return nil }
        guard let body = CheckedRecord.body(of: bytes) else {
            remote.reportDamaged("ac/\(key.hex)")
            return nil
        }
        keepPlan(bytes, as: key)
        return Array(body)
    }

    /// Keeps the record locally and, unless read-only, on the remote cache (after the entries it
    /// names, which the run stored as it went).
    public func storeRecord(_ bytes: [UInt8], as key: ContentHash) {
        let framed = CheckedRecord.frame(body: bytes)
        keepPlan(framed, as: key)
        if let remote, !remote.readOnly { _ = remote.upload(entry: framed, as: key) }
    }

    private func keepPlan(_ framed: [UInt8], as key: ContentHash) {
        guard BlobCopy.place(framed, at: folder.plan(key), temporaryFolder: folder.temporary) else {
            note("local", "could not write a plan record in the cache at \(folder.path)")
            return
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.plans)) ?? []
        guard names.count > Self.localPlanLimit else { return }
        let kept = names.compactMap { name -> (path: String, modified: Int64)? in
            let path = "\(folder.plans)/\(name)"
            return FileStat(path: path).map { (path, $0.modifiedNanoseconds) }
        }.sorted { ($0.modified, $0.path) > ($1.modified, $1.path) }
        for old in kept.dropFirst(Self.localPlanLimit) { unlink(old.path) }
    }
}
