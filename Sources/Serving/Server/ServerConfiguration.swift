/// How `tessera serve` listens and what it accepts.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// The bearer token writes need; nil disables writes (publish, channel moves) altogether.
    public var token: String?
    /// The largest manifest `POST /v1/builds` accepts.
    public var maxManifestBytes: Int
    /// The largest blob `PUT /v1/blobs/…` accepts.
    public var maxBlobBytes: Int
    /// The longest query string and the most tags (wanted plus installed) a query may carry.
    public var maxQueryLength: Int
    public var maxTags: Int
    /// The most connections open at once (`ConnectionRegistry`); nil: from the descriptor limit.
    public var maxConnections: Int?
    /// How long a connection may wait between requests, or between two reads of a request's body.
    public var idleTimeoutSeconds: Int
    /// How long a request head may take to arrive once its first byte has.
    public var headerTimeoutSeconds: Int

    public init(host: String = "127.0.0.1", port: Int = 8080, token: String? = nil,
                maxManifestBytes: Int = 16 << 20, maxBlobBytes: Int = 1 << 30,
                maxQueryLength: Int = 4096, maxTags: Int = 256, maxConnections: Int? = nil,
                idleTimeoutSeconds: Int = 60, headerTimeoutSeconds: Int = 10) {
        self.host = host
        self.port = port
        self.token = token
        self.maxManifestBytes = maxManifestBytes
        self.maxBlobBytes = maxBlobBytes
        self.maxQueryLength = maxQueryLength
        self.maxTags = maxTags
        self.maxConnections = maxConnections
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.headerTimeoutSeconds = headerTimeoutSeconds
    }
}
