import Hummingbird
import Logging

/// One log line per request: method, path, status, bytes sent, milliseconds.
struct RequestLog<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
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
    func request(method: String, path: some StringProtocol, status: Int, bytes: Int, since start: ContinuousClock.Instant) {
        info("\(RequestLogMessage.text(method: method, path: path, status: status, bytes: bytes, since: start))")
    }
}

/// The request log's message, `METHOD PATH STATUS BYTES MS`, the same for the router's requests
/// (through swift-log) and for the bundles `BundleConnectionHandler` answers before the router
/// (straight into `BufferedLogOutput`).
enum RequestLogMessage {
    static func text(method: String, path: some StringProtocol, status: Int, bytes: Int, since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let rounded = (ms * 100).rounded() / 100
        return "\(method) \(path) \(status) \(bytes) \(rounded)"
    }
}
