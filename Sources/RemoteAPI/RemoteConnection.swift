import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Synchronization
import REAPIMessages
#if canImport(Glibc)
import Glibc
#endif

/// One long-lived gRPC connection to a Remote Execution API server: the HTTP/2 channel (plaintext
/// or TLS, optionally trusting a private CA), the headers every call carries, the timeout every
/// call gets, and the server's capabilities, asked for once.
///
/// Its async work runs on `RemoteThreads`, never on Swift's cooperative pool, so the synchronous
/// bridge `wait(_:)` may be called from any thread that is not one of those (see `RemoteThreads`).
/// The cache, the CAS and action-cache clients, and a remote executor share one connection.
package final class RemoteConnection: Sendable {
    package typealias Transport = HTTP2ClientTransport.Posix
    package typealias Client = GRPCClient<Transport>

    package let endpoint: RemoteEndpoint
    /// How long any call may take before it fails as `deadlineExceeded` (longer for large
    /// transfers: `options(carrying:)`). Nothing else bounds a server that accepts and never answers.
    package let timeout: Duration
    package let client: Client
    /// `endpoint.headers` as gRPC metadata (names in lower case, as HTTP/2 requires).
    package let metadata: Metadata
    private let limits = Mutex<Result<ServerLimits, RemoteCallError>?>(nil)

    /// Opens the channel (lazily: the first call connects). Throws when the target or the TLS
    /// settings are unusable (an unreadable CA file).
    package init(endpoint: RemoteEndpoint, timeout: Duration = .seconds(10)) throws(RemoteCallError) {
        self.endpoint = endpoint
        self.timeout = timeout
        var metadata = Metadata()
        for (name, value) in endpoint.headers.sorted(by: { $0.key < $1.key }) {
            metadata.addString(value, forKey: name.lowercased())
        }
        self.metadata = metadata
        let security: HTTP2ClientTransport.Posix.TransportSecurity
        if !endpoint.usesTLS {
            security = .plaintext
        } else if let authority = endpoint.trustedCertificates {
            guard FileManager.default.isReadableFile(atPath: authority) else {
                throw RemoteCallError("cannot read the CA certificates \(authority)")
            }
            security = .tls { $0.trustRoots = .certificates([.file(path: authority, format: .pem)]) }
        } else {
            security = .tls
        }
        do {
            let transport = try HTTP2ClientTransport.Posix(target: Self.target(endpoint), transportSecurity: security)
            client = GRPCClient(transport: transport)
        } catch {
            throw RemoteCallError("connecting to \(endpoint.description)", error)
        }
        let client = self.client
        Task(executorPreference: RemoteThreads.shared) {
            try? await client.runConnections()
        }
    }

    /// An address literal as itself, a name through DNS. (A literal given to the DNS resolver is
    /// taken as a host name: TLS then checks the certificate for that name, and a certificate
    /// for the IP address, as a private server on an address has, is refused.)
    private static func target(_ endpoint: RemoteEndpoint) -> any ResolvableTarget {
        var host = endpoint.host
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        var ipv4 = in_addr(), ipv6 = in6_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 { return .ipv4(address: host, port: endpoint.port) }
        if inet_pton(AF_INET6, host, &ipv6) == 1 { return .ipv6(address: host, port: endpoint.port) }
        return .dns(host: host, port: endpoint.port)
    }

    deinit {
        client.beginGracefulShutdown()
    }

    /// Call options with the timeout (plus a second a MiB of `bytes` the call may move, so a
    /// large blob on a slow link is not cut off) and without waiting for a connection: a server
    /// that is down fails a call at once (`unavailable`) instead of holding it until the timeout.
    package func options(carrying bytes: Int = 0) -> CallOptions {
        var options = CallOptions.defaults
        options.timeout = timeout + .milliseconds(max(0, bytes) >> 10)
        options.waitForReady = false
        // A server may send up to its own 4 MiB limit, plus framing.
        options.maxResponseMessageBytes = ServerLimits.messageLimit + ServerLimits.headroom
        return options
    }

    /// The server's limits, asked for with the first call that needs them and kept; fails when
    /// the server cannot be reached or offers no SHA-256 (then every later call fails the same).
    package func serverLimits() async throws(RemoteCallError) -> ServerLimits {
        try await RemoteThreads.run {
            if let known = limits.withLock({ $0 }) { return try known.get() }
            var request = Build_Bazel_Remote_Execution_V2_GetCapabilitiesRequest()
            request.instanceName = endpoint.instance
            let capabilities: Build_Bazel_Remote_Execution_V2_ServerCapabilities
            do {
                capabilities = try await Build_Bazel_Remote_Execution_V2_Capabilities.Client(wrapping: client)
                    .getCapabilities(request, metadata: metadata, options: options())
            } catch {
                // Not kept: the server may answer the next call.
                throw RemoteCallError("GetCapabilities", error)
            }
            let outcome = ServerLimits.from(capabilities)
            limits.withLock { $0 = outcome }
            return try outcome.get()
        }
    }

    /// The resource-name prefix for ByteStream: `{instance}/`, or nothing for the default instance.
    package var resourcePrefix: String { endpoint.instance.isEmpty ? "" : endpoint.instance + "/" }

    /// Runs `body` on `RemoteThreads` and blocks the calling thread until it is done: how the
    /// synchronous build cache calls the async clients. Never call it from `RemoteThreads` itself.
    package static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws(RemoteCallError) -> T) throws(RemoteCallError) -> T {
        let outcome = Outcome<T>()
        Task(executorPreference: RemoteThreads.shared) {
            let result: Result<T, RemoteCallError>
            do throws(RemoteCallError) { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.value.withLock { $0 = result }
            outcome.done.signal()
        }
        outcome.done.wait()
        return try outcome.value.withLock { $0! }.get()
    }

    /// Where `wait(_:)`'s task leaves its result for the blocked caller.
    private final class Outcome<T: Sendable>: Sendable {
        let value = Mutex<Result<T, RemoteCallError>?>(nil)
        let done = DispatchSemaphore(value: 0)
    }
}
