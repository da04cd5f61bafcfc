import Delivery
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TesseraCore
import TesseraClient
import TestServers

/// `tessera channel rollback|promote` on a signed channel of a real `tessera serve`, followed by
/// a real TesseraClient pinning the root (issue 51 item 4, issue 54 item 15): the move is signed
/// above the channel's highest version and clients follow it; an unsigned one is refused before
/// anything moves, by the command and by the server.
@Suite("Signed channel moves: channel rollback and promote --sign against tessera serve and a pinned client", .serialized)
struct SignedChannelMoveTests {
    /// Where `tessera serve` keeps its builds and channels.
    enum Catalog: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case sqlite
        case postgres
        var testDescription: String { rawValue }
    }

    /// A server over `catalog` (a PostgreSQL of its own for `postgres`) and what stops it.
    func startServer(_ catalog: Catalog, folder: URL) throws -> (ServeProcess, @Sendable () -> Void) {
        switch catalog {
        case .sqlite:
            let server = try ServeProcess(folder: folder.appendingPathComponent("serve").path)
            return (server, { server.stop() })
        case .postgres:
            let postgres = try PostgresServer()
            do {
                let server = try ServeProcess(folder: folder.appendingPathComponent("serve").path, catalog: postgres.url)
                return (server, { server.stop(); postgres.stop() })
            } catch {
                postgres.stop()
                throw error
            }
        }
    }

    /// A second build: the sample build with another pipeline name in its manifest (so another build
    /// ID, and a manifest the client tells apart), its bundles the same.
    func nextBuild(in work: URL) async throws -> URL {
        let folder = work.appendingPathComponent("next-build")
        try FileManager.default.copyItem(at: try await SampleBuild.folder.value, to: folder)
        let path = folder.appendingPathComponent("manifest.json")
        let text = try String(contentsOf: path, encoding: .utf8)
        guard let range = text.range(of: #""pipeline" *: *""#, options: .regularExpression) else { throw ProxyError("no pipeline in the manifest") }
        try text.replacingCharacters(in: range, with: text[range] + "next-").write(to: path, atomically: true, encoding: .utf8)
        return folder
    }

    func channelBuild(_ server: ServeProcess) async throws -> String {
        let (body, _) = try await URLSession.shared.data(from: URL(string: "\(server.url)/v1/channels/production")!)
        return try JSONDecoder().decode(ChannelBuildAnswer.self, from: body).build
    }

    struct ChannelBuildAnswer: Decodable {
        var build: String
        var signedVersion: Int?
    }

    @Test("a client that accepted v43 follows `channel rollback --sign` to the old build, signed as v44, and `promote --sign` back as v45; unsigned moves and --signed-version 43 exit 2 naming v43 and the command, and the server refuses the unsigned move sent directly (409): nothing moves",
          arguments: Catalog.allCases)
    func signedRollbackAndPromote(catalog: Catalog) async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-signed-moves-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let keys = work.appendingPathComponent("keys")
        let cli = SignedCommandLineTests()
        try await cli.makeKeys(in: work)
        let (server, stop) = try startServer(catalog, folder: work)
        defer { stop() }
        let old = try await SampleBuild.folder.value, new = try await nextBuild(in: work)
        let oldID = ContentHash.of(try Data(contentsOf: old.appendingPathComponent("manifest.json"))).hex
        let newID = ContentHash.of(try Data(contentsOf: new.appendingPathComponent("manifest.json"))).hex
        let serverOptions = ["--server", server.url, "--token-file", server.tokenFile]
        let signOptions = ["--sign", "keys/ci.key", "--signing-chain", "keys/chain.json", "--expires", "1h"]
        for (build, version) in [(old, 42), (new, 43)] {
            let published = try await cli.tessera(["publish", build.path, "--channel", "production", "--signed-version", "\(version)"]
                                            + serverOptions + signOptions, in: work)
            #expect(published.status == 0, "\(published.stderr)")
        }
        let client = try TesseraClient(configuration: .channel("production", on: URL(string: server.url)!,
                                                               storeFolder: work.appendingPathComponent("store"), device: "iPhone15,2",
                                                               trustedRoot: try TrustedRoot(contentsOf: keys.appendingPathComponent("root.json"))))
        #expect(try await client.refreshManifest().pipeline.hasPrefix("next-"))

        // Unsigned: refused by the command before anything is sent, and by the server when sent anyway.
        let unsigned = try await cli.tessera(["channel", "rollback", "production"] + serverOptions, in: work)
        #expect(unsigned.status == 2 && unsigned.stderr.contains("up to version 43")
                && unsigned.stderr.contains("tessera channel rollback production --server \(server.url) --token-file \(server.tokenFile) --sign KEY --signing-chain chain.json"),
                "\(unsigned.stderr)")
        var request = URLRequest(url: URL(string: "\(server.url)/v1/channels/production")!)
        request.httpMethod = "PUT"
        request.setValue("Bearer \(ServeProcess.token)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"build":"\#(oldID)","expected":"\#(newID)","kind":"rollback"}"#.utf8)
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 409
                && String(decoding: body, as: UTF8.self).contains("is signed for it at version 42"), "\(String(decoding: body, as: UTF8.self))")
        let unsignedPromote = try await cli.tessera(["channel", "promote", "production", String(oldID.prefix(12))] + serverOptions, in: work)
        #expect(unsignedPromote.status == 2 && unsignedPromote.stderr.contains("up to version 43"), "\(unsignedPromote.stderr)")
        // A version clients already accepted would be refused by them: refused here first.
        let stale = try await cli.tessera(["channel", "rollback", "production", "--signed-version", "43"] + serverOptions + signOptions, in: work)
        #expect(stale.status == 2 && stale.stderr.contains("--signed-version 43 is not above version 43"), "\(stale.stderr)")
        #expect(try await channelBuild(server) == newID)
        #expect(try await client.refreshManifest().pipeline.hasPrefix("next-"))

        let rolledBack = try await cli.tessera(["channel", "rollback", "production"] + serverOptions + signOptions, in: work)
        #expect(rolledBack.status == 0 && rolledBack.stdout.contains("signed \(oldID) for production: version 44")
                && rolledBack.stdout.contains("production -> \(oldID)"), "\(rolledBack.stderr)")
        #expect(try await client.refreshManifest().pipeline == (try await SampleBuild.manifest()).pipeline)

        let promoted = try await cli.tessera(["channel", "promote", "production", newID] + serverOptions + signOptions, in: work)
        #expect(promoted.status == 0 && promoted.stdout.contains("signed \(newID) for production: version 45"), "\(promoted.stderr)")
        #expect(try await client.refreshManifest().pipeline.hasPrefix("next-"))
        let (state, _) = try await URLSession.shared.data(from: URL(string: "\(server.url)/v1/channels/production")!)
        #expect(try JSONDecoder().decode(ChannelBuildAnswer.self, from: state).signedVersion == 45)
    }
}
