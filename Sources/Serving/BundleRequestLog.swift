/// The request log's lines for the bundles `BundleConnectionHandler` answers: the router's
/// request-log message (`RequestLogMessage`), as the serve logger (`label`) would write it at
/// `info` from this module, put straight into the log's buffer.
struct BundleRequestLog: Sendable {
    let output: BufferedLogOutput
    let label: String

    func record(_ request: BundleRequest, status: Int, bytes: Int, since start: ContinuousClock.Instant) {
        let message = RequestLogMessage.text(method: request.isHead ? "HEAD" : "GET", path: "/b/\(request.hex).tsb",
                                             status: status, bytes: bytes, since: start)
        output.info(label: label, source: "Serving", message)
    }
}
