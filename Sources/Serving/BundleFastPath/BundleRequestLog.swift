/// The request log's lines for the bundles `BundleConnectionHandler` answers: the router's
/// request-log message (`RequestLogMessage`), as the serve logger (`label`) would write it at
/// `info` from this module, written straight into the log's pending bytes.
struct BundleRequestLog: Sendable {
    let output: BufferedLogOutput
    let label: String

    func record(_ request: BundleRequest, status: Int, bytes: Int, since start: ContinuousClock.Instant) {
        let milliseconds = RequestLogMessage.milliseconds(since: start)
        output.info(label: label, source: "Serving") { line in
            RequestLogMessage.write(method: request.isHead ? "HEAD" : "GET", status: status, bytes: bytes,
                                    milliseconds: milliseconds, into: &line) { path in
                path.append(contentsOf: request.route.prefix.utf8)
                path.append(contentsOf: request.hex.utf8)
                path.append(contentsOf: request.route.suffix.utf8)
            }
        }
    }
}
