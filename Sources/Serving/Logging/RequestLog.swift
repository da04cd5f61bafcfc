import Hummingbird
import PublishedBuilds
import Logging

/// One log line per request: method, path, status, bytes sent, milliseconds.
struct RequestLog<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response: Response
            do {
                response = try await next(request, context)
            } catch let error as BuildStoreError {
                // Wherever a route met it (inside `answering` or not): a status and a message,
                // never Hummingbird's bare 500.
                throw error.http
            }
            log(request, status: response.status.code, bytes: response.body.contentLength ?? 0, since: start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, status: status, bytes: 0, since: start)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, bytes: Int, since start: ContinuousClock.Instant) {
        logger.request(method: request.method.rawValue, path: request.uri.path, status: status, bytes: bytes, since: start)
    }
}

extension Logger {
    /// The request log's line for the router's requests.
    func request(method: String, path: String, status: Int, bytes: Int, since start: ContinuousClock.Instant) {
        var message: [UInt8] = []
        RequestLogMessage.write(method: method, status: status, bytes: bytes,
                                milliseconds: RequestLogMessage.milliseconds(since: start), into: &message) {
            $0.append(contentsOf: path.utf8)
        }
        info("\(String(decoding: message, as: UTF8.self))")
    }
}

/// The request log's message, `METHOD PATH STATUS BYTES MS`, the same for the router's requests
/// (through swift-log) and for the bundles `BundleConnectionHandler` answers before the router
/// (straight into `BufferedLogOutput`).
enum RequestLogMessage {
    /// Appends the message to `line`; `path` appends the request's path.
    static func write(method: String, status: Int, bytes: Int, milliseconds: Double, into line: inout [UInt8],
                      path: (inout [UInt8]) -> Void) {
        line.append(contentsOf: method.utf8)
        line.append(UInt8(ascii: " "))
        path(&line)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: String(status).utf8)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: String(bytes).utf8)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: milliseconds.description.utf8)
    }

    /// Milliseconds since `start`, to two decimals.
    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return (ms * 100).rounded() / 100
    }
}
