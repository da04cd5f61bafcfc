import Hummingbird
import HummingbirdCore
import Logging
import PublishedBuilds

/// `tessera serve`: the HTTP routes over a `BuildStore` (published builds and channels) and a `BlobStore`.
///
/// Reads are public; writes (publish, channel moves) need the bearer token. See `docs/serving.md`
/// for the routes and their caching rules.
public struct BuildServer: Sendable {
    let builds: any BuildStore
    let blobs: BlobStore
    let configuration: ServerConfiguration
    let manifests: ManifestAnswerCache
    let channelBuilds: ChannelBuildCache
    let openBlobs: OpenBlobCache
    let bundles: BlobResponder
    /// Bundle entries' objects, stored once across builds (`docs/updates.md`).
    let openObjects: OpenBlobCache
    let objects: BlobResponder
    let writes: BearerToken
    /// The open connections, capped (`ConnectionDeadlines`).
    let connections: ConnectionRegistry
    /// The `Server` header of every answer.
    static let serverName = "tessera"

    public init(builds: any BuildStore, blobs: BlobStore, configuration: ServerConfiguration) {
        self.builds = builds
        self.blobs = blobs
        self.configuration = configuration
        manifests = ManifestAnswerCache(blobs: blobs)
        channelBuilds = ChannelBuildCache(store: builds)
        openBlobs = OpenBlobCache(blobs: blobs)
        bundles = BlobResponder(open: openBlobs)
        openObjects = OpenBlobCache(blobs: blobs.objects)
        objects = BlobResponder(open: openObjects, route: .object)
        writes = BearerToken(token: configuration.token)
        connections = ConnectionRegistry(limit: configuration.maxConnections ?? DescriptorBudget.defaultConnectionLimit())
    }

    /// Every route, behind the request log.
    public func router(logger: Logger) -> Router<ServeRequestContext> {
        let router = Router(context: ServeRequestContext.self)
        router.add(middleware: RequestLog(logger: logger))
        // A server whose build store does not answer is not healthy: load balancers should send
        // queries elsewhere (`503`, the reason in the body).
        router.get("/healthz") { _, _ in
            try await builds.checkHealth()
            return "ok\n"
        }
        router.get("/b/:file") { request, context in
            try bundles.respond(to: request, context: context, fileName: try context.parameters.require("file"))
        }
        router.head("/b/:file") { request, context in
            try bundles.respond(to: request, context: context, fileName: try context.parameters.require("file"))
        }
        router.get("/o/:file") { request, context in
            try objects.respond(to: request, context: context, fileName: try context.parameters.require("file"))
        }
        router.head("/o/:file") { request, context in
            try objects.respond(to: request, context: context, fileName: try context.parameters.require("file"))
        }
        // Beside a channel's manifest, as `objects/<sha256>` is beside `manifest.json` on a static
        // host: a client resolves an object's path against the manifest's URL on either.
        router.get("/v1/channels/:name/objects/:file") { request, context in
            try objects.respond(to: request, context: context, fileName: try context.parameters.require("file"))
        }
        router.head("/v1/channels/:name/objects/:file") { request, context in
            try objects.respond(to: request, context: context, fileName: try context.parameters.require("file"))
        }
        router.put("/v1/objects/:digest") { request, context in
            try await storeObject(request, digest: try context.parameters.require("digest"))
        }
        router.post("/v1/builds") { request, context in try await publishBuild(request, context: context) }
        router.get("/v1/builds") { request, _ in try await buildsWithPrefix(request) }
        router.get("/v1/builds/:id") { _, context in try await buildRecord(try context.parameters.require("id")) }
        router.get("/v1/builds/:id/manifest") { _, context in try await buildManifest(try context.parameters.require("id")) }
        router.put("/v1/builds/:id/report") { request, context in
            try await storeBuildReport(request, build: try context.parameters.require("id"))
        }
        router.get("/v1/builds/:id/report") { _, context in try await buildReport(try context.parameters.require("id")) }
        router.put("/v1/blobs/:digest") { request, context in
            try await storeBlob(request, digest: try context.parameters.require("digest"))
        }
        router.get("/v1/channels") { _, _ in try JSONResponse.of(try await builds.channels()) }
        router.get("/v1/channels/:name") { _, context in try await channelState(try context.parameters.require("name")) }
        router.put("/v1/channels/:name") { request, context in
            try await moveChannel(request, name: try context.parameters.require("name"))
        }
        router.get("/v1/channels/:name/manifest") { request, context in
            try await channelManifest(request, name: try context.parameters.require("name"))
        }
        router.head("/v1/channels/:name/manifest") { request, context in
            try await channelManifest(request, name: try context.parameters.require("name"))
        }
        router.put("/v1/builds/:id/signatures/:channel") { request, context in
            try await storeSignature(request, build: try context.parameters.require("id"), channel: try context.parameters.require("channel"))
        }
        router.get("/v1/builds/:id/signatures/:channel") { _, context in
            try await signature(build: try context.parameters.require("id"), channel: try context.parameters.require("channel"))
        }
        router.get("/v1/channels/:name/report") { _, context in try await channelReport(name: try context.parameters.require("name")) }
        router.get("/v1/channels/:name/manifest.sig") { _, context in
            try await channelSignature(name: try context.parameters.require("name"))
        }
        router.get("/v1/channels/:name/apple-asset-packs") { request, context in
            try await appleAssetPacks(request, channel: try context.parameters.require("name"))
        }
        router.get("/v1/channels/:name/query") { request, context in
            try await query(request, channel: try context.parameters.require("name"))
        }
        return router
    }

    /// An application listening on the configured address, logging to `log` (every request: one
    /// line); `runService()` runs it until SIGTERM or SIGINT, then stops accepting and lets
    /// in-flight requests finish (`DrainingShutdown`). Bundle requests are answered before the
    /// router (`BundleConnectionHandler`, `ServeHTTP1Channel`).
    public func application(log: BufferedLogOutput, label: String = "tessera.serve") -> some ApplicationProtocol {
        let logger = log.logger(label: label)
        return Application(router: router(logger: logger),
                           server: HTTPServerBuilder { responder in
                               ServeHTTP1Channel(responder: responder, blobs: openBlobs, objects: openObjects, serverName: Self.serverName,
                                                 requestLog: BundleRequestLog(output: log, label: label),
                                                 connections: connections,
                                                 idleTimeout: .seconds(Int64(configuration.idleTimeoutSeconds)),
                                                 headerTimeout: .seconds(Int64(configuration.headerTimeoutSeconds)))
                           },
                           configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                                serverName: Self.serverName),
                           logger: logger)
    }
}
