import Foundation
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// Entries another machine's Tessera made for jobs of this build (a remote executor's worker,
/// whose cache folder comes back as the action's outputs), taken into this cache so the run that
/// follows restores them like its own.
///
/// An adopted entry is believed no more than a remote cache's: it must parse and check as an
/// `ActionEntry`, every blob it names must arrive matching its SHA-256 (the caller's `fetch`
/// checks what it downloads, and a blob already here was checked when it came), and the entry is
/// written only after its blobs, so a run never finds an entry whose files are not there.
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

    /// The blobs `entry` names that this cache does not hold, or nil when the bytes are no entry.
    public func blobsWanted(by entry: [UInt8]) -> [WantedBlob]? {
        guard let parsed = ActionEntry.parse(entry) else { return nil }
        var seen = Set<ContentHash>()
        return parsed.outputs.compactMap { output in
            guard seen.insert(output.sha256).inserted, FileStat(path: folder.blob(output.sha256)) == nil else { return nil }
            return WantedBlob(sha256: output.sha256, size: output.size, destination: folder.blob(output.sha256),
                              temporaryFolder: folder.temporary)
        }
    }

    /// Writes `entry` under `key` once every blob it names is here; false (nothing written) when
    /// one is not, or the bytes are no entry. (A lookup still checks that the entry is of its
    /// job's kind.)
    public func adopt(entry: [UInt8], as key: ContentHash) -> Bool {
        guard let parsed = ActionEntry.parse(entry),
              parsed.outputs.allSatisfy({ FileStat(path: folder.blob($0.sha256)) != nil }) else { return false }
        return BlobCopy.place(entry, at: folder.action(key), temporaryFolder: folder.temporary)
    }

    /// Whether this cache holds an entry under `key` (not whether it is sound: a lookup checks).
    public func holdsEntry(_ key: ContentHash) -> Bool {
        FileStat(path: folder.action(key)) != nil
    }
}
