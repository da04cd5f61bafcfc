import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TesseraCore

/// One HTTP GET whose body is handed on piece by piece as it arrives, so when the connection drops
/// everything received so far has already been kept (a download resumes from there).
final class HTTPStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Status and headers (names lower-cased).
    struct Head: Sendable {
        var status: Int
        var headers: [String: String]
    }

    typealias HeadHandler = @Sendable (Head) throws(TesseraError) -> Void
    typealias BodyHandler = @Sendable (Data) throws(TesseraError) -> Void

    private let lock = NSLock()
    private let onHead: HeadHandler
    private let onBody: BodyHandler
    private var head: Head?
    private var failure: TesseraError?
    private var continuation: CheckedContinuation<Head, any Error>?

    private init(onHead: @escaping HeadHandler, onBody: @escaping BodyHandler) {
        self.onHead = onHead
        self.onBody = onBody
    }

    /// Runs `request`; `onHead` sees the response head before any body, and either may throw to
    /// stop the transfer. Returns the head once the body is complete; throws on any failure,
    /// including a connection that ends early, and on task cancellation. `timeout` bounds each
    /// wait for bytes; `deadline` the whole answer (`limitExceeded` past it): a server that
    /// drips a byte just inside every timeout is cut off there.
    static func get(_ request: URLRequest, timeout: TimeInterval, deadline: TimeInterval, priority: Float,
                    onHead: @escaping HeadHandler, onBody: @escaping BodyHandler) async throws(TesseraError) -> Head {
        let stream = HTTPStream(onHead: onHead, onBody: onBody)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration, delegate: stream, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        task.priority = priority
        let url = request.url?.absoluteString
        let expiry = DispatchWorkItem { [stream, task] in
            stream.fail(TesseraError(.limitExceeded, file: url, origin: .client,
                                     reason: "the whole answer did not arrive within \(Int(deadline.rounded(.up))) s: too slow"))
            task.cancel()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: expiry)
        defer { expiry.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    stream.lock.withLock { stream.continuation = continuation }
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch let error as TesseraError {
            throw error
        } catch {
            if Task.isCancelled { throw TesseraError(.cancelled, file: url, origin: .client, reason: "cancelled") }
            throw TesseraError(.io, file: url, origin: .client, reason: error.localizedDescription)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let http = response as? HTTPURLResponse else {
            fail(TesseraError(.io, file: response.url?.absoluteString, origin: .client, reason: "not an HTTP response"))
            return completionHandler(.cancel)
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        let head = Head(status: http.statusCode, headers: headers)
        lock.withLock { self.head = head }
        do {
            try onHead(head)
            completionHandler(.allow)
        } catch {
            fail(error)
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        do { try onBody(data) } catch {
            fail(error)
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, head, failure) = lock.withLock { () -> (CheckedContinuation<Head, any Error>?, Head?, TesseraError?) in
            defer { self.continuation = nil }
            return (self.continuation, self.head, self.failure)
        }
        let url = task.originalRequest?.url?.absoluteString
        if let failure {
            continuation?.resume(throwing: failure)
        } else if let error {
            continuation?.resume(throwing: TesseraError(.io, file: url, origin: .client,
                                                        reason: "the transfer failed: \(error.localizedDescription)"))
        } else if let head {
            continuation?.resume(returning: head)
        } else {
            continuation?.resume(throwing: TesseraError(.io, file: url, origin: .client, reason: "no response"))
        }
    }

    private func fail(_ error: TesseraError) {
        lock.withLock { if failure == nil { failure = error } }
    }
}
