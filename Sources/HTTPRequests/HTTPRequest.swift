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

    /// The most an answer's body may hold unless a caller says otherwise: 64 MiB, what every
    /// manifest reader accepts (`ManifestLimits.maxBytes`). An endless or huge body is cut off there
    /// with `TooLarge`, never buffered whole (`tessera query URL` once took 2 GB, then crashed).
    public static let defaultMaxBodyBytes = 64 << 20

    /// An answer whose body is larger than the caller accepts.
    public struct TooLarge: Error, CustomStringConvertible {
        public let limit: Int
        public var description: String { "the answer is larger than the \(limit) bytes accepted; not read further" }
    }

    /// Sends `method url` with `headers` and `body`, and waits for the whole answer: at most
    /// `maxBodyBytes` of body (else `TooLarge`), and the whole of it (head and body) within
    /// `timeout`, however slowly the bytes come. Throws the transport's failure (no connection, a
    /// timeout), not an HTTP status.
    public static func send(_ method: String, _ url: URL, headers: [(String, String)] = [], body: [UInt8]? = nil,
                            timeout: TimeInterval = 60, maxBodyBytes: Int = defaultMaxBodyBytes) async throws -> Answer {
        do {
            return try await answer(start(method, url, headers: headers, body: body, timeout: timeout, maxBodyBytes: maxBodyBytes).get())
        } catch is ResponseAccumulator.ResponseTooBigError {
            throw TooLarge(limit: maxBodyBytes)
        }
    }

    /// The same, for a caller on a plain thread: blocks it until the answer is in (the request
    /// runs on AsyncHTTPClient's own event loops, never on the caller's).
    public static func sendWaiting(_ method: String, _ url: URL, headers: [(String, String)] = [],
                                   body: [UInt8]? = nil, timeout: TimeInterval = 60,
                                   maxBodyBytes: Int = defaultMaxBodyBytes) throws -> Answer {
        do {
            return try answer(start(method, url, headers: headers, body: body, timeout: timeout, maxBodyBytes: maxBodyBytes).wait())
        } catch is ResponseAccumulator.ResponseTooBigError {
            throw TooLarge(limit: maxBodyBytes)
        }
    }

    /// AsyncHTTPClient's deadline covers the whole request, body included: a body dripped a byte
    /// at a time fails at it, as a silent server does.
    private static func start(_ method: String, _ url: URL, headers: [(String, String)], body: [UInt8]?,
                              timeout: TimeInterval, maxBodyBytes: Int) throws -> EventLoopFuture<HTTPClient.Response> {
        let request = try HTTPClient.Request(url: url.absoluteString, method: HTTPMethod(rawValue: method),
                                             headers: HTTPHeaders(headers),
                                             body: body.map { .byteBuffer(ByteBuffer(bytes: $0)) })
        return client.execute(request: request, delegate: ResponseAccumulator(request: request, maxBodySize: maxBodyBytes),
                              deadline: .now() + .milliseconds(Int64((timeout * 1000).rounded()))).futureResult
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
