import Delivery
import Foundation
import Hummingbird
import PublishedBuilds
import TesseraCore

/// What a channel's devices update through, as a static host serves it beside `manifest.json`
/// (`docs/updates.md`): `updates.json`, `manifest.json.xz` and `patches/<from>-<to>.patch`, at
/// `/v1/channels/NAME/…`, so a client resolves them against the channel manifest's URL.
///
/// `tessera publish` uploads them; each is checked before it is kept (the compressed manifest
/// must decode to the build's manifest, a patch applied to its source must make its target), so a
/// token holder cannot make devices fetch a patch that fails, only one that works or none.
extension BuildServer {
    /// `PUT /v1/builds/ID/manifest.json.xz`: the build's manifest, xz-compressed.
    func storeCompressedManifest(_ request: Request, build: BuildID) async throws -> Response {
        let manifest = try await publishedManifest(build)
        var request = request
        let buffer = try await request.collectBody(upTo: configuration.maxManifestBytes)
        return try await answering {
            let decoded = try XZ.decompress(Array(buffer.readableBytesView), expectedSize: manifest.count,
                                            maxSize: configuration.maxManifestBytes)
            guard decoded == manifest else {
                throw HTTPError(.badRequest, message: "the body does not decode to build \(build)'s manifest")
            }
            try updates.putCompressedManifest(Array(buffer.readableBytesView), of: try digest(build))
            return Response(status: .ok)
        }
    }

    /// `PUT /v1/builds/TO/patches/FROM`: a patch from build FROM's manifest to build TO's, kept
    /// only when applying it to FROM's manifest makes TO's exactly.
    func storePatch(_ request: Request, build target: BuildID, from source: BuildID) async throws -> Response {
        let targetBytes = try await publishedManifest(target)
        let sourceBytes = try await publishedManifest(source)
        var request = request
        let buffer = try await request.collectBody(upTo: configuration.maxManifestBytes)
        return try await answering {
            let patch = Array(buffer.readableBytesView)
            _ = try ManifestPatch.apply(patch, to: sourceBytes, target: ManifestReference(of: targetBytes),
                                        name: "PUT /v1/builds/\(target)/patches/\(source)")
            try updates.putPatch(patch, from: try digest(source), to: try digest(target))
            return Response(status: .ok)
        }
    }

    /// `GET /v1/channels/NAME/updates.json`: the channel's build's manifest, its compressed size,
    /// and the patches to it from the builds the channel pointed at before (newest first, at most
    /// `Manifest.maxPredecessors`). `404` until its compressed manifest is uploaded: a client
    /// then fetches the manifest itself, as from a host without update files.
    func updateIndex(_ request: Request, channel name: String) async throws -> Response {
        let state = try await currentChannel(name)
        let build = try digest(state.build)
        guard let manifestSize = blobs.size(of: build),
              let compressed = updates.size(of: updates.compressedManifestPath(of: build)) else {
            throw HTTPError(.notFound, message: "channel '\(name)' has no update files: fetch its manifest")
        }
        var patches: [UpdateIndex.Patch] = []
        for earlier in state.earlierBuilds where patches.count < Manifest.maxPredecessors {
            guard let from = ContentHash(hex: earlier), let size = blobs.size(of: from),
                  let patchSize = updates.size(of: updates.patchPath(from: from, to: build)) else { continue }
            patches.append(UpdateIndex.Patch(from: ManifestReference(sha256: from, bytes: size),
                                             path: ManifestPatch.path(from: from, to: build), bytes: patchSize))
        }
        let index = UpdateIndex(manifest: ManifestReference(sha256: build, bytes: manifestSize), compressedBytes: compressed, patches: patches)
        let body = try StableJSON.encode(index)
        var response = Representation(body: body, etag: ContentHash.of(body).hex, gzip: nil).response(to: request)
        // As with the manifest: the signature of the build this index is for, not the channel's now.
        response.headers[Self.signatureLocation] = "/v1/builds/\(state.build)/signatures/\(name)"
        return response
    }

    /// `GET /v1/channels/NAME/manifest.json.xz`: the channel's build's manifest, compressed.
    func compressedManifest(_ request: Request, channel name: String) async throws -> Response {
        let build = try digest(try await currentBuild(name))
        guard let bytes = updates.compressedManifest(of: build) else {
            throw HTTPError(.notFound, message: "channel '\(name)' has no compressed manifest")
        }
        return Representation(body: bytes, etag: build.hex + ".xz", gzip: nil, contentType: "application/x-xz").response(to: request)
    }

    /// `GET /v1/channels/NAME/patches/<from>-<to>.patch`: immutable, whichever build the channel is on.
    func patchFile(_ request: Request, channel name: String, file: String) async throws -> Response {
        _ = try checkedChannelName(name)
        let suffix = ".\(ManifestPatch.fileExtension)"
        let hashes = file.hasSuffix(suffix) ? file.dropLast(suffix.count).split(separator: "-", omittingEmptySubsequences: false) : []
        guard hashes.count == 2, let from = ContentHash(hex: String(hashes[0])), let to = ContentHash(hex: String(hashes[1])),
              let bytes = updates.patch(from: from, to: to) else {
            throw HTTPError(.notFound, message: "no patch \(file)")
        }
        return Representation(body: bytes, etag: "\(from.hex)-\(to.hex)", gzip: nil, contentType: "application/octet-stream",
                              cacheControl: "public, max-age=31536000, immutable").response(to: request)
    }

    /// A published build's manifest bytes; `404` for a build the server does not have.
    private func publishedManifest(_ build: BuildID) async throws -> [UInt8] {
        guard try await builds.build(build) != nil, let bytes = blobs.read(try digest(build)) else {
            throw HTTPError(.notFound, message: "no build \(build)")
        }
        return bytes
    }

    private func digest(_ build: BuildID) throws -> ContentHash {
        guard let digest = ContentHash(hex: build) else { throw HTTPError(.badRequest, message: "'\(build)' is not a build ID") }
        return digest
    }
}
