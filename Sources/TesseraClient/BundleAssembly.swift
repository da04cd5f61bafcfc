import Delivery
import Foundation
import TesseraCore

/// How an installed bundle's next build is made on the device (`docs/updates.md`): each entry
/// the device already holds (same SHA-256, in any installed bundle of the manifest it holds) is
/// copied from there, each other one comes from its object (`objects/<sha256>`), and the folder
/// is what unpacking the new `.tsb` would give, entry for entry and byte for byte. Which objects
/// and whether they are worth it is `BundleUpdatePlan`'s decision (in Delivery, shared with the
/// size report's update cost); this is where the bytes come from on this device.
struct BundleAssembly: Sendable {
    struct Part: Sendable {
        /// The entry's name in the bundle (its path in the unpacked folder).
        var entry: String
        var sha256: ContentHash
        var bytes: Int
        /// An installed file with these contents, if the device has one.
        var local: String?
    }

    let bundle: BundleEntry
    let parts: [Part]
    /// The objects to fetch, each once.
    let missing: [TransferObject]

    /// `local`: each held entry's installed file (`localEntries`), the set the plan was made with.
    init(_ plan: BundleUpdatePlan, local: [ContentHash: String]) {
        bundle = plan.bundle
        parts = plan.parts.map { Part(entry: $0.entry, sha256: $0.object.sha256, bytes: $0.object.bytes, local: local[$0.object.sha256]) }
        missing = plan.missing
    }

    /// The entries of the bundles installed from `held` (the manifest the device holds), by
    /// SHA-256: each the file its unpacked folder has under `bundlesFolder`.
    static func localEntries(of held: Manifest, installed: Set<ContentHash>, bundlesFolder: String) -> [ContentHash: String] {
        BundleReplacements.heldEntries(of: held, installed: installed)
            .mapValues { "\(bundlesFolder)/\($0.bundle.hex)/\($0.entry)" }
    }

    /// Writes every entry into `folder` (which must not exist): copied — never linked, so no
    /// later write to one file changes another bundle's — from the installed file or from the
    /// fetched object at `staged(sha256)`, each checked against its size and SHA-256 on the way;
    /// then all are flushed to disk together (`EntryFile.flush`), before the folder is renamed into place.
    func assemble(into folder: String, staged: (ContentHash) -> String) throws(TesseraError) {
        let files = FileManager.default
        do { try files.createDirectory(atPath: folder, withIntermediateDirectories: false) } catch {
            throw TesseraError(.io, file: folder, origin: .client, reason: "cannot create: \(error.localizedDescription)")
        }
        var written: [String] = []
        for part in parts {
            let target = "\(folder)/\(part.entry)"
            do {
                try files.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            } catch {
                throw TesseraError(.io, file: target, origin: .client, reason: "cannot create its folder: \(error.localizedDescription)")
            }
            try Self.copy(part, from: part.local ?? staged(part.sha256), to: target)
            written.append(target)
        }
        try EntryFile.flush(written)
    }

    private static func copy(_ part: Part, from source: String, to target: String) throws(TesseraError) {
        guard let input = FileHandle(forReadingAtPath: source) else {
            throw TesseraError(.io, file: source, origin: .client, reason: "cannot open '\(part.entry)''s source")
        }
        defer { try? input.close() }
        let output = try EntryFile(creating: target)
        var hasher = ContentHasher()
        var copied = 0
        while true {
            let data: Data
            do { data = try input.read(upToCount: 1 << 20) ?? Data() } catch {
                throw TesseraError(.io, file: source, origin: .client, reason: "cannot read: \(error.localizedDescription)")
            }
            if data.isEmpty { break }
            copied += data.count
            guard copied <= part.bytes else { break }
            try data.withUnsafeBytes { bytes in
                Result { () throws(TesseraError) in
                    hasher.update(bytes)
                    try output.append(bytes)
                }
            }.get()
        }
        try output.close(flushing: false)
        guard copied == part.bytes, hasher.finalize() == part.sha256 else {
            throw TesseraError(.invalidInput, file: source, origin: .client,
                               reason: "'\(part.entry)' is not the \(part.bytes) bytes of SHA-256 \(part.sha256.hex) it should be")
        }
    }
}
