import Foundation
import JobEngine
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// Entries another machine's Tessera made for jobs of this build (a remote executor's worker,
/// whose cache folder comes back as the action's outputs), taken into this cache so the run that
/// follows restores them like its own.
///
/// An adopted entry is believed no more than a remote cache's: it must parse and check as an
/// `ActionEntry`, be the entry of the job it is filed under (`misfiling`: an executor could hand
/// back another job's entry under each key, every blob matching its digest, or one writing
/// `manifest.json.sig`), every blob it names must arrive matching its SHA-256 (the caller's
/// `fetch` checks what it downloads, and a blob already here was checked when it came), and the
/// entry is written only after its blobs, so a run never finds an entry whose files are not there.
extension BuildCache {
    /// A blob an adopted entry names, with where to put it when this cache lacks it.
    public struct WantedBlob: Sendable {
        public let sha256: ContentHash
        public let size: Int
        /// The final path in this cache's store; `fetch` writes a temporary file in
        /// `temporaryFolder` and renames it here only once its bytes match.
        public let destination: String
        public let temporaryFolder: String
    }

    /// Why an entry another machine made is not taken.
    public enum Refusal: Error, Sendable {
        /// The bytes are no complete, undamaged entry.
        case damaged
        /// An entry, but not the job's (`ActionEntry.misfiling`): what is wrong with it.
        case misfiled(String)
    }

    /// The blobs `entry` names that this cache does not hold, once it is known to be `job`'s.
    public func blobsWanted(by entry: [UInt8], for job: CachedJob) throws(Refusal) -> [WantedBlob] {
        guard let parsed = ActionEntry.parse(entry) else { throw .damaged }
        if let problem = parsed.misfiling(for: job) { throw .misfiled(problem) }
        var seen = Set<ContentHash>()
        return parsed.outputs.compactMap { output in
            guard seen.insert(output.sha256).inserted, FileStat(path: folder.blob(output.sha256)) == nil else { return nil }
            return WantedBlob(sha256: output.sha256, size: output.size, destination: folder.blob(output.sha256),
                              temporaryFolder: folder.temporary)
        }
    }

    /// Writes `entry` under `job`'s key once every blob it names is here; false (nothing written)
    /// when one is not, or the bytes are not `job`'s entry.
    public func adopt(entry: [UInt8], for job: CachedJob) -> Bool {
        guard let parsed = ActionEntry.parse(entry), parsed.misfiling(for: job) == nil,
              parsed.outputs.allSatisfy({ FileStat(path: folder.blob($0.sha256)) != nil }) else { return false }
        return BlobCopy.place(entry, at: folder.action(job.key), temporaryFolder: folder.temporary)
    }

    /// Whether this cache holds an entry under `key` (not whether it is sound: a lookup checks).
    public func holdsEntry(_ key: ContentHash) -> Bool {
        FileStat(path: folder.action(key)) != nil
    }
}

extension ActionEntry {
    /// What makes this entry not `job`'s, or nil when it is: it must name the job's key, be of its
    /// stage, and write exactly the files the plan says the job writes. A job whose files only its
    /// run tells is not taken from another machine: its entry could name any file of the output
    /// folder.
    func misfiling(for job: CachedJob) -> String? {
        let under = "the entry under key \(job.key.hex.prefix(12))…"
        guard key == job.key else { return "\(under) was made under key \(key.hex.prefix(12))…" }
        guard stage == job.kind.rawValue else { return "\(under) is a \(stage) entry, not a \(job.kind.rawValue) one" }
        guard let files = job.files else { return "\(under) is a \(stage) entry, whose files the plan does not name" }
        let paths = outputs.map(\.path)
        guard paths == files else {
            return "\(under) writes \(Self.listed(paths)) where its job writes \(Self.listed(files))"
        }
        return nil
    }

    private static func listed(_ paths: [String]) -> String {
        paths.isEmpty ? "nothing" : paths.prefix(3).joined(separator: ", ") + (paths.count > 3 ? ", …" : "")
    }
}
