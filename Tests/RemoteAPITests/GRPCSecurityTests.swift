import BuildCache
import Crypto
import Foundation
@testable import RemoteAPI
import Testing
import TestServers
import TesseraCore

/// `grpcs://` with a private CA (`--remote-tls-ca`) and a Bearer token, against BuildGrid with TLS
/// and JWT authorization.
@Suite("The gRPC remote cache over TLS with a token", .serialized)
struct GRPCSecurityTests {
    /// An HS256 JWT for `secret`, valid ten minutes (BuildGrid requires `exp`).
    private static func token(secret: String) -> String {
        func encoded(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let header = encoded(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = encoded(Data(#"{"sub":"tessera-test","exp":\#(Int(Date().timeIntervalSince1970) + 600)}"#.utf8))
        let signature = HMAC<SHA256>.authenticationCode(for: Data("\(header).\(payload)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return "\(header).\(payload).\(encoded(Data(signature)))"
    }

    @Test("a build fills the server and a fresh checkout restores from it; without the CA, or without the token, one warning and the right bytes")
    func tlsAndToken() async throws {
        let workspace = try await GRPCWorkspace()
        let folder = URL(fileURLWithPath: workspace.root).appendingPathComponent("tls")
        let tls = try ReapiServers.makeCertificate(in: folder)
        let secret = folder.appendingPathComponent("jwt.secret")
        try "tessera-test-secret\n".write(to: secret, atomically: true, encoding: .utf8)
        let server = try BuildGridServer(tls: tls, jwtSecretFile: secret.path)
        defer { server.stop() }
        #expect(server.url.hasPrefix("grpcs://"))
        let token = Self.token(secret: "tessera-test-secret")
        func remote(authority: String?, token: String?) throws -> RemoteCache {
            var endpoint = try #require(RemoteEndpoint(url: server.url))
            endpoint.trustedCertificates = authority
            if let token { endpoint.headers["authorization"] = "Bearer \(token)" }
            return try RemoteCache.reapi(endpoint)
        }

        let fill = try await workspace.build(into: "fill", cache: try workspace.freshCache("fill", remote: try remote(authority: tls.cert, token: token)))
        #expect(fill.cacheWarnings.isEmpty, "\(fill.cacheWarnings)")
        let restore = try await workspace.build(into: "restore", cache: try workspace.freshCache("restore", remote: try remote(authority: tls.cert, token: token)))
        #expect(restore.cacheWarnings.isEmpty, "\(restore.cacheWarnings)")
        #expect(restore.fileMisses == 0, "\(String(describing: restore.report.cache))")
        #expect(workspace.outputs("restore") == workspace.reference)

        let untrusted = try await workspace.build(into: "untrusted", cache: try workspace.freshCache("untrusted", remote: try remote(authority: nil, token: token)))
        #expect(untrusted.cacheWarnings.count == 1 && untrusted.cacheWarnings[0].contains("cannot be used"), "\(untrusted.cacheWarnings)")
        #expect(workspace.outputs("untrusted") == workspace.reference)
        let anonymous = try await workspace.build(into: "anonymous", cache: try workspace.freshCache("anonymous", remote: try remote(authority: tls.cert, token: nil)))
        #expect(anonymous.cacheWarnings.count == 1 && anonymous.cacheWarnings[0].contains("UNAUTHENTICATED"), "\(anonymous.cacheWarnings)")
        #expect(workspace.outputs("anonymous") == workspace.reference)
    }
}
