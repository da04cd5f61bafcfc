import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One HTTP request answered whole, over one AsyncHTTPClient for the process: what the
/// command line's few client calls (publish, channels, a report's earlier build) need.
///
/// It replaces URLSession there because FoundationNetworking brings libcurl and some 25 shared
/// libraries into every start of `tessera` (about 6 MB resident, docs/memory.md), and the binary
/// already links AsyncHTTPClient for the remote cache.
public enum HTTPRequest {
    /// The status and the whole body.
    public struct Answer: Sendable {
        public var status: Int
        public var body: [UInt8]
    }

    /// Sends `method url` with `headers` and `body`, and waits for the whole answer. Throws the
    /// transport's failure (no connection, a timeout), not an HTTP status.
    public static func send(_ method: String, _ url: URL, headers: [(String, String)] = [], body: [UInt8]? = nil,
                            timeout: TimeInterval = 60) async throws -> Answer {
        try await answer(start(method, url, headers: headers, body: body, timeout: timeout).get())
    }

    /// The same, for a caller on a plain thread: blocks it until the answer is in (the request
    /// runs on AsyncHTTPClient's own event loops, never on the caller's).
    public static func sendWaiting(_ method: String, _ url: URL, headers: [(String, String)] = [],
                                   body: [UInt8]? = nil, timeout: TimeInterval = 60) throws -> Answer {
        try answer(start(method, url, headers: headers, body: body, timeout: timeout).wait())
    }

    private static func start(_ method: String, _ url: URL, headers: [(String, String)], body: [UInt8]?,
                              timeout: TimeInterval) throws -> EventLoopFuture<HTTPClient.Response> {
        let request = try HTTPClient.Request(url: url.absoluteString, method: HTTPMethod(rawValue: method),
                                             headers: HTTPHeaders(headers),
                                             body: body.map { .byteBuffer(ByteBuffer(bytes: $0)) })
        return client.execute(request: request,
                                         deadline: .now() + .milliseconds(Int64((timeout * 1000).rounded())))
    }

    /// AsyncHTTPClient's shared client retries a refused connection until the request's deadline:
    /// `tessera publish` to a server that had just died waited a minute before saying so. A
    /// command line talks to one server it names: a refused connection is reported at once, and
    /// connecting is given 10 s.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    private static func answer(_ response: HTTPClient.Response) -> Answer {
        Answer(status: Int(response.status.code), body: response.body.map { Array(buffer: $0) } ?? [])
    }
}
