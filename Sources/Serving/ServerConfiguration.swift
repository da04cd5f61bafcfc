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

    public init(host: String = "127.0.0.1", port: Int = 8080, token: String? = nil,
                maxManifestBytes: Int = 16 << 20, maxBlobBytes: Int = 1 << 30,
                maxQueryLength: Int = 4096, maxTags: Int = 256) {
        self.host = host
        self.port = port
        self.token = token
        self.maxManifestBytes = maxManifestBytes
        self.maxBlobBytes = maxBlobBytes
        self.maxQueryLength = maxQueryLength
        self.maxTags = maxTags
    }
}
