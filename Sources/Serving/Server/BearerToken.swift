import Hummingbird

/// The write guard: `Authorization: Bearer <token>`, compared in constant time. It is the write
/// group's middleware (`RouteTable`), so no write handler checks it itself.
struct BearerToken: RouterMiddleware {
    typealias Context = ServeRequestContext
    let token: String?

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        try authorize(request)
        return try await next(request, context)
    }

    func authorize(_ request: Request) throws {
        guard let token else {
            throw HTTPError(.forbidden, message: "writes are disabled: the server was started without --token-file")
        }
        let given = request.headers[.authorization] ?? ""
        guard Self.equal(Array(given.utf8), Array("Bearer \(token)".utf8)) else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer"], message: "missing or wrong bearer token")
        }
    }

    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<min(a.count, b.count) { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
