import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Serving
import Testing

/// The write guard is the write group's middleware: these tests enumerate the router's own routes,
/// so a write route registered outside that group fails here, not in production.
@Suite("Serve route table")
struct RouteTableTests {
    /// Every route of the router whose method changes state, with its captures filled in.
    private static func writeRoutes(_ service: BuildServer) -> [(HTTPRequest.Method, String)] {
        var logger = Logger(label: "test")
        logger.logLevel = .error
        return service.router(logger: logger).routes
            .filter { $0.method != .get && $0.method != .head }
            .map { route in
                let path = "\(route.path)".split(separator: "/").map { $0.hasPrefix("{") || $0.hasPrefix(":") ? "x" : String($0) }
                return (route.method, "/" + path.joined(separator: "/"))
            }
    }

    @Test("every route other than GET and HEAD refuses a request without the token (401) before reading it, and every one is refused (403) on a server without one")
    func everyWriteRouteIsGuarded() async throws {
        let guarded = try TestService()
        defer { guarded.remove() }
        let writes = Self.writeRoutes(guarded.service)
        // Publish, blobs, objects, reports, signatures, update files, channel moves: the routes the docs list.
        #expect(Set(writes.map { "\($0.0) \($0.1)" }) == [
            "POST /v1/builds", "PUT /v1/blobs/x", "PUT /v1/objects/x", "PUT /v1/builds/x/report",
            "PUT /v1/builds/x/signatures/x", "PUT /v1/channels/x", "PUT /v1/builds/x/manifest.json.xz", "PUT /v1/builds/x/patches/x",
        ])
        try await guarded.application.test(.router) { client in
            for (method, uri) in writes {
                try await client.execute(uri: uri, method: method, body: buffer(Array("{}".utf8))) {
                    #expect($0.status == .unauthorized, "\(method) \(uri)")
                    #expect($0.headers[.wwwAuthenticate] == "Bearer", "\(method) \(uri)")
                }
                try await client.execute(uri: uri, method: method, headers: [.authorization: "Bearer wrong"], body: buffer([])) {
                    #expect($0.status == .unauthorized, "\(method) \(uri)")
                }
            }
        }
        let open = try TestService(configuration: ServerConfiguration(token: nil))
        defer { open.remove() }
        try await open.application.test(.router) { client in
            for (method, uri) in Self.writeRoutes(open.service) {
                try await client.execute(uri: uri, method: method, headers: writeHeaders, body: buffer([])) {
                    #expect($0.status == .forbidden, "\(method) \(uri)")
                }
            }
        }
    }

    @Test("the reads stay public: every GET route answers without a token, with something other than 401 or 403")
    func readsArePublic() async throws {
        let test = try TestService()
        defer { test.remove() }
        var logger = Logger(label: "test")
        logger.logLevel = .error
        let reads = test.service.router(logger: logger).routes.filter { $0.method == .get }.map { route in
            "/" + "\(route.path)".split(separator: "/").map { $0.hasPrefix("{") || $0.hasPrefix(":") ? "x" : String($0) }.joined(separator: "/")
        }
        #expect(reads.count >= 15)
        try await test.application.test(.router) { client in
            for uri in reads {
                try await client.execute(uri: uri, method: .get) {
                    #expect($0.status != .unauthorized && $0.status != .forbidden, "GET \(uri)")
                }
            }
        }
    }
}
