import CatalogStore
import Foundation
import Manifests
import Slicing
import TesseraCore

/// Published manifests, decoded once per build, and query answers, made once per build and
/// question: a build's manifest never changes (its ID is the manifest's digest), so nothing here
/// is ever stale. Answers are bounded: past `answerLimit` the table starts afresh.
actor ManifestCache {
    struct Entry: Sendable {
        var manifest: Manifest
        var representation: Representation
    }

    private let blobs: BlobStore
    private var entries: [BuildID: Entry] = [:]
    private var answers: [AnswerKey: Representation] = [:]
    private let answerLimit = 4096

    private struct AnswerKey: Hashable {
        var build: BuildID
        var device: String
        var tags: [String]
        var installed: [String]
    }

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

    /// `DeviceQuery`'s answer as JSON with its tag and gzip form; errors (unknown device or tag)
    /// are thrown each time, not kept.
    func answer(for build: BuildID, device: String, tags: [String], installed: [String]) throws -> Representation {
        let key = AnswerKey(build: build, device: device, tags: tags, installed: installed)
        if let known = answers[key] { return known }
        let answer = try DeviceQuery.answer(try entry(for: build).manifest, device: device, tags: tags, installed: installed)
        let body = try StableJSON.encode(answer)
        let representation = Representation(body: body, etag: ContentHash.of(body).hex, gzip: try Gzip.compress(body, level: 6))
        if answers.count >= answerLimit { answers.removeAll(keepingCapacity: true) }
        answers[key] = representation
        return representation
    }
}
