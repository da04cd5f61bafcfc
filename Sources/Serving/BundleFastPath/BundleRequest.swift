/// `GET`/`HEAD /b/<sha256>.tsb` or `/o/<sha256>` as read from a connection's bytes by
/// `RequestHeadScan`: the request fields a bundle's or object's answer (`BlobAnswer`) depends on,
/// nothing else.
struct BundleRequest: Equatable {
    var isHead: Bool
    /// The 64 lower-case hex digits of the file name.
    var hex: String
    /// A bundle or an object.
    var route: BlobRoute = .bundle
    var isHTTP10: Bool
    /// HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    var keepsAlive: Bool
    /// The fields' values, several fields of one name joined with commas; nil when absent.
    var range: String?
    var ifNoneMatch: String?
    var ifRange: String?
}
