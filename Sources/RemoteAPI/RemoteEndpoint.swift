import Foundation
import TesseraCore

/// Where a Remote Execution API server is: `grpc://HOST:PORT` (plaintext) or `grpcs://HOST:PORT`
/// (TLS), an instance name, and the headers every call carries (a Bearer token, BuildBuddy's
/// `x-buildbuddy-api-key`, any `--remote-header K=V`).
public struct RemoteEndpoint: Sendable, Hashable {
    public var host: String
    public var port: Int
    public var usesTLS: Bool
    /// The REAPI instance name (empty: the server's default instance).
    public var instance: String
    /// Sent with every call, as gRPC metadata.
    public var headers: [String: String]
    /// A PEM file of the certificates to trust instead of the system's (a private CA).
    public var trustedCertificates: String?

    public init(host: String, port: Int, usesTLS: Bool, instance: String = "", headers: [String: String] = [:],
                trustedCertificates: String? = nil) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
        self.instance = instance
        self.headers = headers
        self.trustedCertificates = trustedCertificates
    }

    /// Reads `grpc://HOST[:PORT]` or `grpcs://HOST[:PORT]` (default ports 80 and 443); nil for any
    /// other scheme, so `http(s)://` stays the Bazel HTTP protocol.
    public init?(url text: String) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "grpc" || scheme == "grpcs",
              let host = url.host, !host.isEmpty else { return nil }
        self.init(host: host, port: url.port ?? (scheme == "grpcs" ? 443 : 80), usesTLS: scheme == "grpcs")
    }

    /// `grpc(s)://host:port`, and the instance when it has one: what messages name.
    public var description: String {
        "\(usesTLS ? "grpcs" : "grpc")://\(host):\(port)" + (instance.isEmpty ? "" : " (instance \(instance))")
    }
}
