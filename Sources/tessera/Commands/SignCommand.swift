import ArgumentParser
import Delivery
import Foundation
import Signing
import TesseraCore

/// Options every command that signs a manifest takes (`sign`, `publish --sign`).
struct SigningOptions: ParsableArguments {
    @Option(name: .customLong("signing-chain"), help: "The signing chain (tessera keys root-init, delegate).")
    var signingChain: String = "chain.json"

    @Option(name: .customLong("signed-version"),
            help: "The manifest's signed version: higher than every version signed before for the channel (clients refuse older ones), e.g. the CI build number.")
    var signedVersion: Int?

    @Option(help: "How long the signature is valid: a number and s, m, h, d or w (e.g. 30d). Clients refuse an expired one.")
    var expires: String = "30d"

    func signer(key: String) throws(TesseraError) -> ManifestSigner {
        ManifestSigner(key: try KeyFile.readPrivate(key), chain: try SigningChain.read(signingChain), chainSource: signingChain)
    }

    func version() throws(TesseraError) -> Int {
        guard let signedVersion else {
            throw TesseraError(.configuration, origin: .publish, reason: "--signed-version N is needed to sign")
        }
        return signedVersion
    }

    func expiry() throws(TesseraError) -> Date { Date() + (try ExpiryDuration.seconds(expires)) }
}

/// `tessera sign BUILD --key K --channel C --signed-version N --expires D`: the sidecar a static host serves.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a build's manifest.json for a channel into manifest.json.sig beside it (atomically), for a static host (docs/security.md).")

    @Argument(help: "A build folder holding manifest.json.")
    var build: String

    @Option(help: "The signing key's private key file (tessera keys generate; delegated with tessera keys delegate).")
    var key: String

    @Option(help: "The channel the manifest is signed for: clients expecting another refuse it.")
    var channel: String

    @OptionGroup var signing: SigningOptions

    func validate() throws {
        if signing.signedVersion == nil { throw ValidationError("--signed-version N is needed: clients refuse a version lower than one they accepted") }
    }

    func run() throws {
        do throws(TesseraError) {
            let path = try signing.signer(key: key).signFolder(build, channel: channel, version: try signing.version(),
                                                               expires: try signing.expiry())
            print("signed \(path): channel \(channel), version \(try signing.version()), key \(try KeyFile.readPrivate(key).keyid)")
        } catch {
            throw fail(error)
        }
    }
}
