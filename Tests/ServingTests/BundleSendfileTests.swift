import Foundation
import Manifests
import TestServers
import Testing
import TesseraCore

/// Bundles are sent two ways: by `BundleChannelHandler` on the event loop with `sendfile`, and
/// by the Hummingbird route when the request is pipelined behind one Hummingbird still answers.
/// Both must give the same answers, in the requests' order. (`LiveServeTests.nginxAgrees`
/// holds the `sendfile` path to nginx; `gracefulShutdown` holds it to SIGTERM.)
@Suite("Bundles with sendfile (live)", .serialized)
struct BundleSendfileTests {
    @Test("pipelined behind queries, bundle requests are answered in order by the route, with the sendfile path's status, headers and bytes")
    func pipelinedRouteMatchesSendfile() async throws {
        let build = try await SamplesBuild.get()
        let folder = LiveServeTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeProcess(folder: folder)
        defer { server.stop() }
        #expect(try LiveServeTests.publish(build, to: server, channel: "production").status == 0)
        let manifest = try ManifestWriter.read(from: "\(build)/manifest.json")
        let largest = manifest.bundles.max { $0.bytes < $1.bytes }!
        let hex = largest.sha256.hex, length = largest.bytes, path = "/b/\(hex).tsb"
        let bundleRequests: [(method: String, path: String, headers: [(String, String)])] = [
            ("GET", path, [("Range", "bytes=-65536")]),
            ("GET", path, []),
            ("HEAD", path, [("Range", "bytes=10-19")]),
            ("GET", path, [("If-None-Match", "\"\(hex)\"")]),
            ("GET", path, [("Range", "bytes=\(length)-")]),
            ("GET", path, [("Range", "bytes=100-"), ("If-Range", "\"\(hex)\"")]),
            ("GET", path, [("Range", "bytes=100-"), ("If-Range", "\"other\"")]),
            ("GET", path + "?v=1", [("Range", "bytes=0-0")]),
        ]
        let query = (method: "GET", path: "/v1/channels/production/query?device=iPhone15,2&tags=Green", headers: [(String, String)]())
        let alone = try bundleRequests.map { try RawHTTP.request(port: server.port, method: $0.method, path: $0.path, headers: $0.headers) }
        let queryAnswer = try RawHTTP.request(port: server.port, path: query.path)
        #expect(queryAnswer.status == 200)
        let pipelined = try RawHTTP.pipeline(port: server.port, bundleRequests.flatMap { [query, $0] })
        try #require(pipelined.count == 2 * bundleRequests.count)
        for (index, request) in bundleRequests.enumerated() {
            let label = "\(request.method) \(request.headers)"
            let viaQuery = pipelined[2 * index], viaRoute = pipelined[2 * index + 1], viaSendfile = alone[index]
            #expect(viaQuery.status == 200 && viaQuery.body == queryAnswer.body, "\(label)")
            #expect(viaRoute.status == viaSendfile.status, "\(label)")
            #expect(viaRoute.body == viaSendfile.body, "\(label)")
            let ignored: Set<String> = ["date", "connection"]
            #expect(viaRoute.headers.filter { !ignored.contains($0.key) } == viaSendfile.headers.filter { !ignored.contains($0.key) },
                    "\(label)")
            // IMF-fixdate, as Hummingbird dates its answers: "Mon, 23 Nov 2026 14:45:11 GMT".
            let date = try #require(viaSendfile.header("Date"))
            #expect(date.count == 29 && date.hasSuffix(" GMT") && date.count == viaRoute.header("Date")?.count, "\(date)")
        }
        #expect(alone.map(\.status) == [206, 200, 206, 304, 416, 206, 200, 206])
        #expect(alone[0].body == Array(try Data(contentsOf: URL(fileURLWithPath: "\(build)/\(largest.path)")).suffix(65536)))
        #expect(ContentHash.of(alone[1].body) == largest.sha256)
        #expect(alone[2].body.isEmpty && alone[2].header("Content-Length") == "10")
        // One log line per request, whichever way it was answered.
        #expect(server.stop() == 0)
        let log = try String(contentsOfFile: server.logPath, encoding: .utf8)
        #expect(log.components(separatedBy: "GET \(path) 206 65536 ").count - 1 == 2)
        #expect(log.components(separatedBy: "HEAD \(path) 206 0 ").count - 1 == 2)
        #expect(log.components(separatedBy: "GET \(path) 304 0 ").count - 1 == 2)
    }
}
