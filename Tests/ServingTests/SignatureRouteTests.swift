import Delivery
import Foundation
import Hummingbird
import PublishedBuilds
import HummingbirdTesting
import Serving
import Signing
import Testing
import TesseraCore

@Suite("Serve routes: manifest signatures")
struct SignatureRouteTests {
    /// A valid sidecar for `build` on `channel`, signed by a fresh chain.
    func sidecar(for build: SyntheticBuild, channel: String, version: Int = 1) throws -> [UInt8] {
        let root = KeyFile.generate(), signer = KeyFile.generate()
        let chain = try KeyDelegation.delegate(SigningChain(roots: [try RootCeremony.initialRoot(keys: [root], threshold: 1)]),
                                               rootKeys: [root], signingKeys: [signer.trustKey], revoke: [], version: nil,
                                               expires: Date() + 3600, source: "chain.json")
        return try ManifestSigner(key: signer, chain: chain, chainSource: "chain.json")
            .sidecar(for: Data(build.manifestBytes), channel: channel, version: version, expires: Date() + 600, source: "manifest.json")
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
            let twoSigned = try sidecar(for: two, channel: "production", version: 2)
            let move = try StableJSON.encode(ChannelMove(build: two.id, expected: one.id, signature: String(decoding: twoSigned, as: UTF8.self)))
            try await client.execute(uri: "/v1/channels/production", method: .put, headers: writeHeaders, body: buffer(move)) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/v1/channels/production/manifest.sig", method: .get) {
                #expect($0.status == .ok && bytes($0.body) == twoSigned)
            }
            try await client.execute(uri: location, method: .get) { #expect($0.status == .ok && bytes($0.body) == signed) }
            try await client.execute(uri: "/v1/builds/\(two.id)/signatures/staging", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test("a signed channel refuses over HTTP a move without a signature above its highest version (409, naming the versions), and a signature for another build or channel (400); the channel stays; a signed move goes")
    func signedChannelRefusesUnsignedMoves() async throws {
        let test = try TestService()
        defer { test.remove() }
        let one = try SyntheticBuild(seed: 1), two = try SyntheticBuild(seed: 3)
        try await test.application.test(.router) { client in
            try await publish(one, channel: nil, client: client)
            try await publish(two, channel: nil, client: client)
            let route = "/v1/channels/production"
            let first = try StableJSON.encode(ChannelMove(build: one.id, expected: nil,
                                                          signature: String(decoding: try sidecar(for: one, channel: "production", version: 5), as: UTF8.self)))
            try await client.execute(uri: route, method: .put, headers: writeHeaders, body: buffer(first)) { #expect($0.status == .ok) }
            let unsigned = try StableJSON.encode(ChannelMove(build: two.id, expected: one.id))
            try await client.execute(uri: route, method: .put, headers: writeHeaders, body: buffer(unsigned)) {
                let reason = String(decoding: bytes($0.body), as: UTF8.self)
                #expect($0.status == .conflict && reason.contains("channel 'production' is signed up to version 5")
                        && reason.contains("has no signature for it"), "\(reason)")
            }
            for (signed, status, words) in [(try sidecar(for: two, channel: "production", version: 5), HTTPResponse.Status.conflict, "not above version 5"),
                                            (try sidecar(for: one, channel: "production", version: 6), .badRequest, "manifest \(one.id)"),
                                            (try sidecar(for: two, channel: "staging", version: 6), .badRequest, "channel 'staging'")] {
                let move = try StableJSON.encode(ChannelMove(build: two.id, expected: one.id, signature: String(decoding: signed, as: UTF8.self)))
                try await client.execute(uri: route, method: .put, headers: writeHeaders, body: buffer(move)) {
                    let reason = String(decoding: bytes($0.body), as: UTF8.self)
                    #expect($0.status == status && reason.contains(words), "\(reason)")
                }
            }
            try await client.execute(uri: route, method: .get) {
                let state = try JSONDecoder().decode(ChannelState.self, from: Data(bytes($0.body)))
                #expect(state.build == one.id && state.signedVersion == 5 && state.history.count == 1)
            }
            try await client.execute(uri: "/v1/builds/\(two.id)/signatures/production", method: .get) { #expect($0.status == .notFound) }
            let signed = try StableJSON.encode(ChannelMove(build: two.id, expected: one.id,
                                                           signature: String(decoding: try sidecar(for: two, channel: "production", version: 6), as: UTF8.self)))
            try await client.execute(uri: route, method: .put, headers: writeHeaders, body: buffer(signed)) {
                let state = try JSONDecoder().decode(ChannelState.self, from: Data(bytes($0.body)))
                #expect(state.build == two.id && state.signedVersion == 6)
            }
            // The build's manifest, which the CLI signs, is answered by build ID.
            try await client.execute(uri: "/v1/builds/\(two.id)/manifest", method: .get) {
                #expect($0.status == .ok && bytes($0.body) == two.manifestBytes)
            }
        }
    }
}
