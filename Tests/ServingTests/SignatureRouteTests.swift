import Delivery
import Foundation
import Hummingbird
import HummingbirdTesting
import Serving
import Signing
import Testing
import TesseraCore

@Suite("Serve routes: manifest signatures")
struct SignatureRouteTests {
    /// A valid sidecar for `build` on `channel`, signed by a fresh chain.
    func sidecar(for build: SyntheticBuild, channel: String) throws -> [UInt8] {
        let root = KeyFile.generate(), signer = KeyFile.generate()
        let chain = try KeyDelegation.delegate(SigningChain(roots: [try RootCeremony.initialRoot(keys: [root], threshold: 1)]),
                                               rootKeys: [root], signingKeys: [signer.trustKey], revoke: [], version: nil,
                                               expires: Date() + 3600, source: "chain.json")
        return try ManifestSigner(key: signer, chain: chain, chainSource: "chain.json")
            .sidecar(for: Data(build.manifestBytes), channel: channel, version: 1, expires: Date() + 600, source: "manifest.json")
    }

    @Test("a signature put with the token is answered at /v1/channels/NAME/manifest.sig while the channel points at its build, and at the build's own URL the manifest's Tessera-Signature-Location names; not a sidecar, another channel's or another manifest's is 400; no token 401; an unsigned build 404")
    func storeAndServe() async throws {
        let test = try TestService()
        defer { test.remove() }
        let one = try SyntheticBuild(seed: 1), two = try SyntheticBuild(seed: 3)
        let signed = try sidecar(for: one, channel: "production")
        try await test.application.test(.router) { client in
            try await publish(one, channel: "production", client: client)
            try await publish(two, channel: nil, client: client)
            let route = "/v1/builds/\(one.id)/signatures/production"
            try await client.execute(uri: "/v1/channels/production/manifest.sig", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: route, method: .put, body: buffer(signed)) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: route, method: .put, headers: writeHeaders, body: buffer(Array("{}".utf8))) {
                #expect($0.status == .badRequest)
            }
            try await client.execute(uri: route, method: .put, headers: writeHeaders, body: buffer(try sidecar(for: one, channel: "staging"))) {
                #expect($0.status == .badRequest && String(decoding: bytes($0.body), as: UTF8.self).contains("channel 'staging'"))
            }
            try await client.execute(uri: "/v1/builds/\(two.id)/signatures/production", method: .put, headers: writeHeaders,
                                     body: buffer(signed)) { #expect($0.status == .badRequest) }
            try await client.execute(uri: route, method: .put, headers: writeHeaders, body: buffer(signed)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/channels/production/manifest.sig", method: .get) {
                #expect($0.status == .ok && bytes($0.body) == signed && $0.headers[.cacheControl] == "no-store")
            }
            // The manifest names its own build's signature, which stays answerable after the channel moves.
            let location = "/v1/builds/\(one.id)/signatures/production"
            try await client.execute(uri: "/v1/channels/production/manifest", method: .get) {
                #expect($0.headers[HTTPFields.Element.Name("Tessera-Signature-Location")!] == location)
            }
            let move = try StableJSON.encode(ChannelMove(build: two.id, expected: one.id))
            try await client.execute(uri: "/v1/channels/production", method: .put, headers: writeHeaders, body: buffer(move)) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/v1/channels/production/manifest.sig", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: location, method: .get) { #expect($0.status == .ok && bytes($0.body) == signed) }
            try await client.execute(uri: "/v1/builds/\(two.id)/signatures/production", method: .get) { #expect($0.status == .notFound) }
        }
    }
}
