import Delivery
import Hummingbird
import PublishedBuilds
import TesseraCore

extension BuildServer {
    /// `GET /v1/channels/NAME/query?device=ID&tags=a,b&installed=c`: `tessera query --json`'s
    /// answer for the channel's build, through the same `DeviceQuery`.
    func query(_ request: Request, channel: String) async throws -> Response {
        if let query = request.uri.query, query.utf8.count > configuration.maxQueryLength {
            throw HTTPError(.uriTooLong, message: "query string over \(configuration.maxQueryLength) bytes")
        }
        let parameters = request.uri.queryParameters
        guard let device = parameters["device"].map(String.init), !device.isEmpty else {
            throw HTTPError(.badRequest, message: "missing 'device' parameter")
        }
        let tags = DeviceQuery.tagList(parameters.getAll("tags").map { String($0) })
        let installed = DeviceQuery.tagList(parameters.getAll("installed").map { String($0) })
        guard tags.count + installed.count <= configuration.maxTags else {
            throw HTTPError(.badRequest, message: "more than \(configuration.maxTags) tags")
        }
        let build = try await currentBuild(channel)
        return try await answering {
            try manifests.answer(for: build, device: device, tags: tags, installed: installed).response(to: request)
        }
    }
}
