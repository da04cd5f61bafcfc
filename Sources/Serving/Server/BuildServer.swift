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
    /// Compressed manifests and manifest patches (`UpdateRoutes`).
    let updates: UpdateFileStore
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
        updates = UpdateFileStore(store: blobs.root)
        connections = ConnectionRegistry(limit: configuration.maxConnections ?? DescriptorBudget.defaultConnectionLimit())
    }

    /// Every route, behind the request log, in the groups of `RouteTable`.
    public func router(logger: Logger) -> Router<ServeRequestContext> {
        let router = Router(context: ServeRequestContext.self)
        router.add(middleware: RequestLog(logger: logger))
        addRoutes(to: router)
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
