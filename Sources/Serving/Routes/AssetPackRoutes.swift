import Hummingbird
import Manifests
import TesseraCore

extension BuildServer {
    /// `GET /v1/channels/NAME/apple-asset-packs`: the channel's build as managed asset packs, one
    /// per device group, each with the URL this server answers for its bundle (`/b/<sha256>.tsb`):
    /// the download manifest of a self-hosted app (docs/apple-asset-packs.md).
    func appleAssetPacks(_ request: Request, channel: String) async throws -> Response {
        let build = try await currentBuild(channel)
        return try await answering {
            let manifest = try manifests.entry(for: build).manifest
            let plan = try ManagedAssetPackPlan(manifest, ids: .perDeviceGroup)
            let index = ManagedAssetPackIndex(pipeline: manifest.pipeline, plan: plan, mode: .perDeviceGroup) {
                "/b/\($0.sha256.hex).tsb"
            }
            let body = try StableJSON.encode(index)
            return Representation(body: body, etag: ContentHash.of(body).hex, gzip: nil).response(to: request)
        }
    }
}
