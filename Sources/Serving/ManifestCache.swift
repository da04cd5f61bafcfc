import CatalogStore
import Foundation
import Manifests
import TesseraCore

/// Published manifests, decoded once per build: a build's manifest never changes (its ID is
/// the manifest's digest), so nothing here is ever invalidated.
actor ManifestCache {
    struct Entry: Sendable {
        var manifest: Manifest
        var representation: Representation
    }

    private let blobs: BlobStore
    private var entries: [BuildID: Entry] = [:]

    init(blobs: BlobStore) { self.blobs = blobs }

    func entry(for build: BuildID) throws -> Entry {
        if let entry = entries[build] { return entry }
        guard let digest = ContentHash(hex: build), let bytes = blobs.read(digest) else {
            throw TesseraError(.io, file: build, stage: "serve", reason: "the manifest blob of build \(build) is missing")
        }
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(bytes))
        let gzip = FileManager.default.contents(atPath: blobs.gzipPath(of: digest)).map { Array($0) }
        let entry = Entry(manifest: manifest, representation: Representation(body: bytes, etag: build, gzip: gzip))
        entries[build] = entry
        return entry
    }
}
