import Delivery
import Foundation
import PublishedBuilds
import Synchronization
import TesseraCore

/// Published manifests, decoded once per build, and query answers, made once per build and
/// question: a build's manifest never changes (its ID is the manifest's digest), so nothing here
/// is ever stale. Answers are bounded: past `answerLimit` the table starts afresh.
///
/// A lock, not an actor: a lookup is a dictionary read and needs no hop to another executor.
/// Two requests may make the same new answer at once; both are the same bytes, and one is kept.
final class ManifestAnswerCache: Sendable {
    struct Entry: Sendable {
        var manifest: Manifest
        var representation: Representation
        /// The manifest as queries answer from it: bundle URLs this server answers.
        var served: Manifest
    }

    private struct AnswerKey: Hashable {
        var build: BuildID
        var device: String
        var tags: [String]
        var installed: [String]
    }

    private struct Tables {
        var entries: [BuildID: Entry] = [:]
        var answers: [AnswerKey: Representation] = [:]
    }

    private let blobs: BlobStore
    private let tables = Mutex(Tables())
    private let answerLimit = 4096

    init(blobs: BlobStore) { self.blobs = blobs }

    func entry(for build: BuildID) throws -> Entry {
        if let entry = tables.withLock({ $0.entries[build] }) { return entry }
        guard let digest = ContentHash(hex: build), let bytes = blobs.read(digest) else {
            throw TesseraError(.io, file: build, origin: .serve, reason: "the manifest blob of build \(build) is missing")
        }
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(bytes))
        let gzip = FileManager.default.contents(atPath: blobs.gzipPath(of: digest)).map { Array($0) }
        let entry = Entry(manifest: manifest, representation: Representation(body: bytes, etag: build, gzip: gzip),
                          served: Self.served(manifest))
        tables.withLock { $0.entries[build] = entry }
        return entry
    }

    /// `DeviceQuery`'s answer as JSON with its tag and gzip form; errors (unknown device or tag)
    /// are thrown each time, not kept.
    func answer(for build: BuildID, device: String, tags: [String], installed: [String]) throws -> Representation {
        let key = AnswerKey(build: build, device: device, tags: tags, installed: installed)
        if let known = tables.withLock({ $0.answers[key] }) { return known }
        let answer = try DeviceQuery.answer(try entry(for: build).served, device: device, tags: tags, installed: installed)
        let body = try StableJSON.encode(VersionedJSON(answer))
        let representation = Representation(body: body, etag: ContentHash.of(body).hex, gzip: try Gzip.compress(body, level: 6))
        tables.withLock {
            if $0.answers.count >= answerLimit { $0.answers.removeAll(keepingCapacity: true) }
            $0.answers[key] = representation
        }
        return representation
    }

    /// `manifest` with each bundle URL one this server answers: a build published without an
    /// absolute `base-url` lists relative paths (`bundles/base/….tsb`) that only a static host of
    /// the build folder serves, so they become `/b/<sha256>.tsb`; absolute URLs (the build's own
    /// CDN) are kept.
    static func served(_ manifest: Manifest) -> Manifest {
        var served = manifest
        for index in served.bundles.indices {
            let url = served.bundles[index].url.lowercased()
            if !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
                served.bundles[index].url = "/b/\(served.bundles[index].sha256.hex).tsb"
            }
        }
        return served
    }
}
