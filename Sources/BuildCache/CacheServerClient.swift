import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// The HTTP exchange with a remote cache server: keep-alive connections from one pool, each
/// request waited for on the calling thread (the cache is consulted from plain worker threads).
///
/// URLSession on Linux spent about 1.4 ms of CPU on each of the thousands of small requests a
/// warm build makes; AsyncHTTPClient reuses pooled connections for a small fraction of that.
final class CacheServerClient: Sendable {
    /// What came back: the status and the whole body (empty for HEAD).
    struct Answer {
        var status: Int
        var body: [UInt8]
    }

    private let client: HTTPClient
    private let timeout: TimeAmount
    private let authorization: String?
    /// Sent with every request besides `Authorization` (`--remote-header`), sorted by name.
    private let extraHeaders: [(String, String)]

    /// `timeout` bounds connecting and each wait for bytes; a whole request gets that plus a
    /// second for every MiB its answer may carry (`deadline(carrying:)`).
    init(timeout: TimeInterval, connections: Int, authorization: String?, headers: [String: String] = [:]) {
        let seconds = TimeAmount.milliseconds(Int64((timeout * 1000).rounded()))
        client = Self.pool(timeout: seconds, connections: connections)
        self.timeout = seconds
        self.authorization = authorization
        extraHeaders = headers.sorted { $0.key < $1.key }
    }

    private struct PoolKey: Hashable {
        let timeout: TimeAmount
        let connections: Int
    }

    /// One connection pool per setting, for the life of the process, never shut down. A request's
    /// `wait()` returns before the pool has taken its connection back; shutting the pool down
    /// right after (a client's deinit) raced that release, and AsyncHTTPClient stops the process
    /// on a release it no longer expects ("A connection that we don't know was released").
    private static let pools = Mutex<[PoolKey: HTTPClient]>([:])

    private static func pool(timeout: TimeAmount, connections: Int) -> HTTPClient {
        pools.withLock { pools in
            let key = PoolKey(timeout: timeout, connections: connections)
            if let known = pools[key] { return known }
            var configuration = HTTPClient.Configuration()
            configuration.timeout = .init(connect: timeout, read: timeout, write: timeout)
            configuration.connectionPool = .init(idleTimeout: .seconds(60),
                                                 concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
            configuration.decompression = .disabled
            configuration.redirectConfiguration = .disallow
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            pools[key] = client
            return client
        }
    }

    /// GETs `url` into the open file `descriptor` (a 200's body only, at most `limit` bytes: the
    /// blob's size) and waits; throws like `send`.
    func download(_ url: URL, into descriptor: Int32, limit: Int) throws -> BlobDownload.Outcome {
        try receive(url, with: BlobDownload(into: descriptor, limit: limit), carrying: limit)
    }

    /// GETs `url`, handing the answer to `delegate` as it arrives, and waits; throws like `send`.
    /// `carrying`: the most bytes the answer may bring.
    func receive<Delegate: HTTPClientResponseDelegate>(_ url: URL, with delegate: Delegate, carrying bytes: Int) throws -> Delegate.Response {
        let request = try HTTPClient.Request(url: url.absoluteString, method: .GET, headers: headers(body: false))
        return try client.execute(request: request, delegate: PacedTransfer(delegate, timeout: timeout),
                                  deadline: deadline(carrying: bytes)).wait()
    }

    /// When a request that may bring `bytes` must be done: the timeout plus a second a MiB, so a
    /// server that drips a byte every few seconds (each under the read timeout) is cut off at
    /// 10 s for an entry's few kilobytes rather than at a minute (issue 39), while a 64 MiB pack
    /// still has over a minute on a slow link.
    func deadline(carrying bytes: Int) -> NIODeadline {
        .now() + timeout + .milliseconds(Int64(max(0, bytes) >> 10))
    }

    private func headers(body: Bool) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if let authorization { headers.add(name: "Authorization", value: authorization) }
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        if body { headers.add(name: "Content-Type", value: "application/octet-stream") }
        return headers
    }

    /// Sends one request and waits for its answer, whose body may be at most `limit` bytes; throws
    /// on a transport error, a timeout, a body cut short or one past the limit (`BodyTooLong`).
    func send(_ method: HTTPMethod, _ url: URL, body: [UInt8]?, limit: Int) throws -> Answer {
        let request = try HTTPClient.Request(url: url.absoluteString, method: method, headers: headers(body: body != nil),
                                             body: body.map { .bytes($0) })
        let delegate = PacedTransfer(BoundedBody(limit: limit, announcedLengthCounts: method != .HEAD), timeout: timeout)
        return try client.execute(request: request, delegate: delegate, deadline: deadline(carrying: (body?.count ?? 0) + limit)).wait()
    }
}
