import Delivery
import Foundation
import PublishedBuilds
import TesseraCore

/// How `tessera publish` makes what the server lacks: the build side (`XZ.compress`,
/// `ManifestDiffer`), which this module does not link, passed in by the command.
public struct UpdateFileMaker: Sendable {
    public var compress: @Sendable ([UInt8]) throws(TesseraError) -> [UInt8]
    public var patch: @Sendable (_ from: [UInt8], _ to: [UInt8]) throws(TesseraError) -> [UInt8]

    public init(compress: @escaping @Sendable ([UInt8]) throws(TesseraError) -> [UInt8],
                patch: @escaping @Sendable (_ from: [UInt8], _ to: [UInt8]) throws(TesseraError) -> [UInt8]) {
        self.compress = compress
        self.patch = patch
    }
}

extension BuildServerClient {
    /// What `publishUpdateFiles` uploaded.
    public struct UpdateFilesUpload: Sendable, Equatable {
        /// Whether the server keeps update files at all (a server older than them answers 404).
        public var supported: Bool
        /// The builds a patch to this one was uploaded from, newest first.
        public var patchesFrom: [BuildID]
    }

    /// Uploads the build's compressed manifest and a patch to it from each build a device may
    /// hold: those `channel` pointed at before (newest first), then the manifest's own
    /// `predecessors` (`run --against`), at most `Manifest.maxPredecessors`. A patch the build
    /// folder holds is uploaded as it is; one it lacks is made from the earlier manifest, fetched
    /// from the server. Builds the server does not have are passed over.
    public func publishUpdateFiles(build: BuildID, folder: String, channel: ChannelState?,
                                   maker: UpdateFileMaker) async throws(TesseraError) -> UpdateFilesUpload {
        let manifestPath = "\(folder)/manifest.json"
        guard let manifestData = FileManager.default.contents(atPath: manifestPath) else {
            throw TesseraError(.io, file: manifestPath, origin: .publish, reason: "cannot read the manifest")
        }
        let manifestBytes = [UInt8](manifestData)
        // The folder's own files only when they are for this manifest: one edited after the
        // build (a signed rebuild, a hand fix) leaves them describing the old one.
        let compressed: [UInt8]
        if let kept = FileManager.default.contents(atPath: "\(folder)/\(UpdateIndex.compressedManifestName)").map({ [UInt8]($0) }),
           (try? XZ.decompress(kept, expectedSize: manifestBytes.count, maxSize: ManifestLimits.maxBytes)) == manifestBytes {
            compressed = kept
        } else {
            compressed = try maker.compress(manifestBytes)
        }
        do {
            _ = try await send("PUT", "v1/builds/\(build)/\(UpdateIndex.compressedManifestName)", body: Data(compressed))
        } catch let error where error.reason.hasPrefix("HTTP 404") {
            return UpdateFilesUpload(supported: false, patchesFrom: [])
        }
        let manifest = try Manifest.decode(manifestData, source: manifestPath)
        var sources: [BuildID] = []
        // The channel's build now is the newest a device may hold: the new build is not on it yet.
        let channelBuilds = channel.map { [$0.build] + $0.earlierBuilds } ?? []
        for candidate in channelBuilds + (manifest.predecessors ?? []).map(\.sha256.hex)
        where candidate != build && !sources.contains(candidate) && sources.count < Manifest.maxPredecessors {
            sources.append(candidate)
        }
        var uploaded: [BuildID] = []
        for source in sources {
            guard let target = ContentHash(hex: build), let from = ContentHash(hex: source) else { continue }
            let kept = FileManager.default.contents(atPath: "\(folder)/\(ManifestPatch.path(from: from, to: target))").map { [UInt8]($0) }
            let patch: [UInt8]
            if let kept, let header = ManifestPatch.Header.decode(kept), header.source.sha256 == from,
               header.target == ManifestReference(of: manifestBytes) {
                patch = kept
            } else {
                guard let earlier = try await optional({ () async throws(TesseraError) in try await self.manifest(of: source) }) else { continue }
                patch = try maker.patch([UInt8](earlier), manifestBytes)
            }
            if try await optional({ () async throws(TesseraError) in
                try await self.send("PUT", "v1/builds/\(build)/patches/\(source)", body: Data(patch))
            }) != nil {
                uploaded.append(source)
            }
        }
        return UpdateFilesUpload(supported: true, patchesFrom: uploaded)
    }

    /// The answer, or nil when the server answered 404 (a build it does not have).
    private func optional<T>(_ call: () async throws(TesseraError) -> T) async throws(TesseraError) -> T? {
        do {
            return try await call()
        } catch let error where error.reason.hasPrefix("HTTP 404") {
            return nil
        }
    }
}
