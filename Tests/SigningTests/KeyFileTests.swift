import Delivery
import Foundation
import Signing
import TesseraCore
import Testing

@Suite("Key files and signing output on disk")
struct KeyFileTests {
    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-keys-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("generate writes NAME.key mode 0600 and NAME.pub; both read back to one key ID, the SHA-256 of the public key; never overwritten")
    func generateAndRead() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let key = KeyFile.generate()
        try key.write(stem: "\(folder)/ci")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: "\(folder)/ci.key")[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(try KeyFile.readPrivate("\(folder)/ci.key").keyid == key.keyid)
        #expect(try KeyFile.readPublic("\(folder)/ci.pub") == key.trustKey)
        #expect(key.keyid == String(ContentHash.of(key.publicKey).hex.prefix(32)))
        #expect(!(String(decoding: try Data(contentsOf: URL(fileURLWithPath: "\(folder)/ci.pub")), as: UTF8.self)).contains("private"))
        #expect(throws: TesseraError.self) { try KeyFile.generate().write(stem: "\(folder)/ci") }
        #expect(try KeyFile.readPrivate("\(folder)/ci.key").privateKey == key.privateKey)
    }

    @Test("sign writes manifest.json.sig beside the manifest, leaving no temporary file; a key not delegated is refused before anything is written")
    func signFolder() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let trust = try TrustChain()
        try trust.manifest.write(to: URL(fileURLWithPath: "\(folder)/manifest.json"))
        let stranger = ManifestSigner(key: KeyFile.generate(), chain: trust.chain, chainSource: "chain.json")
        #expect(throws: TesseraError.self) { _ = try stranger.signFolder(folder, channel: "production", version: 1, expires: Date() + 60) }
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/manifest.json.sig"))
        let path = try ManifestSigner(key: trust.signingKey, chain: trust.chain, chainSource: "chain.json")
            .signFolder(folder, channel: "production", version: 3, expires: Date() + 60)
        #expect(path == "\(folder)/manifest.json.sig")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["manifest.json", "manifest.json.sig"])
        let accepted = try trust.verify(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(accepted.statement.version == 3 && accepted.statement.channel == "production")
    }

    @Test("durations: a number and s, m, h, d or w; anything else is refused")
    func durations() throws {
        #expect(try ExpiryDuration.seconds("90d") == 90 * 86400)
        #expect(try ExpiryDuration.seconds("12h") == 12 * 3600)
        for bad in ["", "d", "0d", "-3d", "5y", "1.5h"] {
            #expect(throws: TesseraError.self) { _ = try ExpiryDuration.seconds(bad) }
        }
        #expect(TrustTime.parse("2027-01-01T00:00:00Z") != nil)
        #expect(TrustTime.parse("2027-01-01T00:00:00+01:00") == nil && TrustTime.parse("2027-01-01") == nil)
    }
}
