import ArgumentParser
import Delivery
import Foundation
import Signing
import TesseraCore

/// `tessera keys generate|root-init|delegate|rotate-root`: the keys and trust documents that
/// signed manifests chain to (docs/security.md).
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make Ed25519 keys, the root of trust apps pin, and the signing keys it delegates to (docs/security.md).",
        discussion: """
            First: root keys (kept offline) and a signing key (for CI); root.json, the file apps pin \
            (ClientConfiguration.trustedRoot, --trusted-root), and chain.json; the root delegating to \
            the signing key. Then sign builds with `tessera sign` or `tessera publish --sign`.

              tessera keys generate root-1
              tessera keys generate ci-1
              tessera keys root-init --root-key root-1.key
              tessera keys delegate --root-key root-1.key --signing-key ci-1.pub --expires 365d

            Rotating a signing key: delegate again with the new key and --revoke the old one. \
            Rotating the root: rotate-root, signed by a threshold of the old and of the new root keys.
            """,
        subcommands: [Generate.self, RootInit.self, Delegate.self, RotateRoot.self])

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a new Ed25519 key pair: NAME.key (private, mode 0600; never put it on a server) and NAME.pub.")
        @Argument(help: "The files' path without extension.") var name: String

        func run() throws {
            do throws(TesseraError) {
                let key = KeyFile.generate()
                try key.write(stem: name)
                print("\(key.keyid) \(name).key \(name).pub")
            } catch {
                throw fail(error)
            }
        }
    }

    struct RootInit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "root-init",
            abstract: "Make root v1 over the given root keys, signed by all of them: root.json (the file apps pin) and a new signing chain.")
        @Option(help: "A root private key file (repeat for several root keys).") var rootKey: [String]
        @Option(help: "How many root keys must sign a delegation or rotation.") var threshold: Int = 1
        @Option(help: "Where to write the root file apps pin.") var root: String = "root.json"
        @Option(help: "Where to write the signing chain (it holds no private key).") var chain: String = "chain.json"

        func run() throws {
            do throws(TesseraError) {
                guard !FileManager.default.fileExists(atPath: chain) else {
                    throw TesseraError(.configuration, file: chain, origin: .publish, reason: "a signing chain is there already")
                }
                let envelope = try RootCeremony.initialRoot(keys: try rootKey.map(KeyFile.readPrivate), threshold: threshold)
                try AtomicFile.write(try StableJSON.encode(envelope), to: root)
                try SigningChain(roots: [envelope]).write(chain)
                print("root v1: \(rootKey.count) keys, threshold \(threshold); pin \(root); chain \(chain)")
            } catch {
                throw fail(error)
            }
        }
    }

    struct Delegate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign a new signing-keys document with the root keys: the keys that may sign manifests, revoked ones, a version and an expiry.",
            discussion: "Rotating a signing key: --signing-key NEW.pub --revoke OLD.pub. Revocations carry over to every later document.")
        @Option(help: "The signing chain to update (atomically).") var chain: String = "chain.json"
        @Option(help: "A root private key file (as many as the root's threshold).") var rootKey: [String]
        @Option(help: "A public key file of a key that may sign manifests (repeat for several).") var signingKey: [String]
        @Option(help: "A key to revoke: its key ID or key file (repeat for several).") var revoke: [String] = []
        @Option(name: .customLong("keys-version"), help: "The document's version (default: one more than the current one).")
        var version: Int?
        @Option(help: "How long the document is valid: a number and s, m, h, d or w (e.g. 365d).") var expires: String

        func run() throws {
            do throws(TesseraError) {
                let current = try SigningChain.read(chain)
                let revoked = try revoke.map { (item: String) throws(TesseraError) -> String in
                    FileManager.default.fileExists(atPath: item) ? try KeyFile.readPublic(item).keyid : item
                }
                let updated = try KeyDelegation.delegate(current, rootKeys: try rootKey.map(KeyFile.readPrivate),
                                                         signingKeys: try signingKey.map(KeyFile.readPublic), revoke: revoked,
                                                         version: version, expires: Date() + (try ExpiryDuration.seconds(expires)),
                                                         source: chain)
                try updated.write(chain)
                let document = try updated.signingKeys(source: chain)
                print("signing keys v\(document.version): \(document.keys.map(\.keyid).joined(separator: ",")); revoked: \(document.revoked.isEmpty ? "none" : document.revoked.joined(separator: ",")); expires \(document.expires)")
            } catch {
                throw fail(error)
            }
        }
    }

    struct RotateRoot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-root",
            abstract: "Append the next root to the signing chain, signed by a threshold of the current root's keys and of the new ones.",
            discussion: "Apps pinning an earlier root follow the chain. The signing-keys document is re-signed by the new root. Write the new root file with --root to pin it in the next app release.")
        @Option(help: "The signing chain to update (atomically).") var chain: String = "chain.json"
        @Option(help: "A current root private key file (as many as its threshold).") var rootKey: [String]
        @Option(help: "A private key file of the new root (repeat for several).") var newRootKey: [String]
        @Option(help: "How many of the new root's keys must sign.") var threshold: Int = 1
        @Option(help: "Also write the new root here, to pin in new app releases.") var root: String?

        func run() throws {
            do throws(TesseraError) {
                let rotated = try RootCeremony.rotate(try SigningChain.read(chain), oldKeys: try rootKey.map(KeyFile.readPrivate),
                                                      newKeys: try newRootKey.map(KeyFile.readPrivate), threshold: threshold, source: chain)
                try rotated.write(chain)
                if let root { try AtomicFile.write(try StableJSON.encode(rotated.roots[rotated.roots.count - 1]), to: root) }
                print("root v\(rotated.roots.count): \(newRootKey.count) keys, threshold \(threshold)")
            } catch {
                throw fail(error)
            }
        }
    }
}
