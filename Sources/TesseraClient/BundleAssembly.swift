import Delivery
import Foundation
import TesseraCore

/// How an installed bundle's next build is made on the device (`docs/updates.md`): each entry
/// the device already holds (same SHA-256, in any installed bundle of the manifest it holds) is
/// copied from there, each other one comes from its object (`objects/<sha256>`), and the folder
/// is what unpacking the new `.tsb` would give, entry for entry and byte for byte.
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

    /// Bytes the objects to fetch take on the wire.
    var missingBytes: Int { missing.reduce(0) { $0 + $1.transferBytes } }

    /// What one object request costs beyond its body (request and answer heads, about 400 bytes
    /// on nginx): what makes many small objects dearer than their sizes say.
    static let requestOverhead = 512

    /// nil when the bundle cannot be made from objects: an entry the manifest lists no object
    /// for (a manifest of minor version 0), or names no bundle may hold.
    init?(bundle: BundleEntry, objects: BundleEntryObjects, local: [ContentHash: String]) {
        guard !bundle.entries.contains(where: { BundleEntryName.problem(with: $0) != nil }),
              BundleEntryName.conflict(in: bundle.entries) == nil else { return nil }
        var parts: [Part] = []
        var missing: [ContentHash: TransferObject] = [:]
        for entry in bundle.entries {
            guard let object = objects[entry: entry] else { return nil }
            let held = local[object.sha256]
            parts.append(Part(entry: entry, sha256: object.sha256, bytes: object.bytes, local: held))
            if held == nil { missing[object.sha256] = object }
        }
        self.bundle = bundle
        self.parts = parts
        self.missing = missing.values.sorted { $0.sha256 < $1.sha256 }
    }

    /// Whether fetching the objects is the cheaper way: their bytes and requests stay below
    /// `share` of the whole `.tsb` (past it, one resumable request for the bundle saves the
    /// per-object requests for little more on the wire).
    func isWorthIt(share: Double) -> Bool {
        Double(missingBytes + missing.count * Self.requestOverhead) < share * Double(bundle.bytes)
    }

    /// The entries of the bundles installed from `held` (the manifest the device holds), by
    /// SHA-256: each the file its unpacked folder has under `bundlesFolder`.
    static func localEntries(of held: Manifest, installed: Set<ContentHash>, bundlesFolder: String) -> [ContentHash: String] {
        let files = BundleEntryFiles(held)
        var local: [ContentHash: String] = [:]
        for bundle in held.bundles where installed.contains(bundle.sha256) {
            for entry in bundle.entries {
                guard let file = files[entry: entry], BundleEntryName.problem(with: entry) == nil else { continue }
                local[file.sha256] = local[file.sha256] ?? "\(bundlesFolder)/\(bundle.sha256.hex)/\(entry)"
            }
        }
        return local
    }

    /// Writes every entry into `folder` (which must not exist): copied — never linked, so no
    /// later write to one file changes another bundle's — from the installed file or from the
    /// fetched object at `staged(sha256)`, each checked against its size and SHA-256 on the way.
    func assemble(into folder: String, staged: (ContentHash) -> String) throws(TesseraError) {
        let files = FileManager.default
        do { try files.createDirectory(atPath: folder, withIntermediateDirectories: false) } catch {
            throw TesseraError(.io, file: folder, stage: .client, reason: "cannot create: \(error.localizedDescription)")
        }
        for part in parts {
            let target = "\(folder)/\(part.entry)"
            do {
                try files.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            } catch {
                throw TesseraError(.io, file: target, stage: .client, reason: "cannot create its folder: \(error.localizedDescription)")
            }
            try Self.copy(part, from: part.local ?? staged(part.sha256), to: target)
        }
    }

    private static func copy(_ part: Part, from source: String, to target: String) throws(TesseraError) {
        guard let input = FileHandle(forReadingAtPath: source) else {
            throw TesseraError(.io, file: source, stage: .client, reason: "cannot open '\(part.entry)''s source")
        }
        defer { try? input.close() }
        let output = try EntryFile(creating: target)
        var hasher = ContentHasher()
        var copied = 0
        while true {
            let data: Data
            do { data = try input.read(upToCount: 1 << 20) ?? Data() } catch {
                throw TesseraError(.io, file: source, stage: .client, reason: "cannot read: \(error.localizedDescription)")
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
        try output.close()
        guard copied == part.bytes, hasher.finalize() == part.sha256 else {
            throw TesseraError(.invalidInput, file: source, stage: .client,
                               reason: "'\(part.entry)' is not the \(part.bytes) bytes of SHA-256 \(part.sha256.hex) it should be")
        }
    }
}
