import Delivery
import Foundation
import Signing
import TesseraCore
import TestServers

/// A publisher's keys for a signed test build: root key, signing key, the chain, and root.json
/// (the pinned root) in a folder of its own; signs what the rig serves, checked or not.
final class ClientTrust: @unchecked Sendable {
    let folder: URL
    let rootKey = KeyFile.generate()
    var signingKey = KeyFile.generate()
    var chain: SigningChain
    let pinned: TrustedRoot

    init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-client-trust-\(UUID().uuidString)")
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let root = try RootCeremony.initialRoot(keys: [rootKey], threshold: 1)
        let rootFile = folder.appendingPathComponent("root.json")
        try AtomicFile.write(try StableJSON.encode(root), to: rootFile.path)
        pinned = try TrustedRoot(contentsOf: rootFile)
        chain = try KeyDelegation.delegate(SigningChain(roots: [root]), rootKeys: [rootKey], signingKeys: [signingKey.trustKey],
                                           revoke: [], version: nil, expires: Date() + 86400, source: "chain.json")
    }

    var rootFile: URL { folder.appendingPathComponent("root.json") }

    /// Writes `served/manifest.json.sig` for the manifest there now, unchecked (so expired or
    /// revoked signatures can be made), by `key` (default: the signing key) with `chain` (default: the current one).
    func sign(_ served: URL, version: Int, channel: String = "production", expires: Date = Date() + 3600,
              key: KeyFile? = nil, chain: SigningChain? = nil) throws {
        let manifest = try Data(contentsOf: served.appendingPathComponent("manifest.json"))
        let bytes = try ManifestSigner(key: key ?? signingKey, chain: chain ?? self.chain, chainSource: "chain.json")
            .uncheckedSidecar(for: manifest, channel: channel, version: version, expires: expires, source: "manifest.json")
        try AtomicFile.write(bytes, to: served.appendingPathComponent("manifest.json.sig").path)
    }

    /// A new signing key delegated in the next keys document, the current one revoked.
    func rotateSigningKey() throws -> (old: KeyFile, new: KeyFile) {
        let old = signingKey, new = KeyFile.generate()
        chain = try KeyDelegation.delegate(chain, rootKeys: [rootKey], signingKeys: [new.trustKey], revoke: [old.keyid],
                                           version: nil, expires: Date() + 86400, source: "chain.json")
        signingKey = new
        return (old, new)
    }

    func stop() { try? FileManager.default.removeItem(at: folder) }
}

/// Every file under `folder` (relative path → bytes): a store compared before and after a refusal.
func snapshot(of folder: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    while let url = enumerator?.nextObject() as? URL {
        if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files[String(url.path.dropFirst(folder.path.count))] = try? Data(contentsOf: url)
        }
    }
    return files
}

/// `client-demo ARGS`: exit status and everything it printed.
func runClientDemo(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let demo = Process()
    demo.executableURL = URL(fileURLWithPath: ServeProcess.executable).deletingLastPathComponent().appendingPathComponent("client-demo")
    demo.arguments = arguments
    let output = Pipe()
    demo.standardOutput = output
    demo.standardError = output
    try demo.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    demo.waitUntilExit()
    return (demo.terminationStatus, printed)
}


/// `runClientDemo`, awaited on a thread of its own (`OwnThread`: a test waiting for a process
/// holds no thread of the cooperative pool).
func runClientDemo(_ arguments: [String]) async throws -> (status: Int32, output: String) {
    let result = try await OwnThread.run { () throws -> ClientDemoResult in
        let (status, output) = try runClientDemo(arguments)
        return ClientDemoResult(status: status, output: output)
    }
    return (result.status, result.output)
}

private struct ClientDemoResult: Sendable {
    var status: Int32
    var output: String
}
