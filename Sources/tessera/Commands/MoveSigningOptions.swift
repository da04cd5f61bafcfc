import ArgumentParser
import Foundation
import PublishedBuilds
import Serving
import TesseraCore

/// `tessera channel promote|rollback --sign KEY [--signing-chain CHAIN] [--signed-version N]
/// [--expires D]`: the target build's manifest signed for the channel and sent with the move,
/// which the server keeps in the same transaction (docs/security.md, "Moving a signed channel").
///
/// Clients pinning the root refuse a manifest signed at or below a version they accepted, so on a
/// signed channel an unsigned move, or one signed at an old version, would report success and
/// move no client: both are refused here, before anything is sent, with the command that works.
struct MoveSigningOptions: ParsableArguments {
    @Option(help: "Sign the build's manifest for the channel with this private key file and send the signature with the move (needed on a signed channel); the key stays here.")
    var sign: String?

    @OptionGroup var signing: SigningOptions

    func validate() throws {
        if sign == nil && signing.signedVersion != nil { throw ValidationError("--signed-version needs --sign KEY") }
    }

    /// The sidecar to send with moving `channel` (now `state`; nil when it does not exist yet)
    /// to `build`, and its version; nil for an unsigned move of a channel never signed.
    /// Unless `--signed-version` is given, the version is the one above the channel's highest.
    func signature(for build: BuildID, channel: String, state: ChannelState?,
                   client: BuildServerClient) async throws(TesseraError) -> (sidecar: [UInt8], version: Int)? {
        let highest = state?.signedVersion
        guard let sign else {
            guard let highest else { return nil }
            throw TesseraError(.configuration, file: client.server.absoluteString, origin: .channel, reason: """
                channel '\(channel)' is signed: clients pinning the root have accepted its manifests up to version \(highest) \
                and refuse a move not signed above it, so this one would report success and move no client. \
                Sign the move (KEY: a signing key the chain delegates; it signs as version \(highest + 1)): \
                \(Self.currentCommand) --sign KEY --signing-chain \(signing.signingChain)
                """)
        }
        let version: Int
        if let given = signing.signedVersion {
            if let highest, given <= highest {
                throw TesseraError(.configuration, file: client.server.absoluteString, origin: .channel, reason: """
                    --signed-version \(given) is not above version \(highest), the highest signed for channel '\(channel)': \
                    clients pinning the root that accepted \(highest) would refuse it; give a higher one, or leave \
                    --signed-version out to sign as \(highest + 1)
                    """)
            }
            version = given
        } else {
            version = (highest ?? 0) + 1
        }
        // The key and chain are read before the manifest is fetched: a wrong path fails first.
        let signer = try signing.signer(key: sign)
        let manifest = try await client.manifest(of: build)
        let source = client.server.appendingPathComponent("v1/builds/\(build)/manifest").absoluteString
        let sidecar = try signer.sidecar(for: manifest, channel: channel, version: version, expires: try signing.expiry(), source: source)
        return (sidecar, version)
    }

    /// This command line as typed, quoted for a POSIX shell where needed, to name the command that works.
    static var currentCommand: String {
        (["tessera"] + CommandLine.arguments.dropFirst()).map { argument in
            let plain = !argument.isEmpty && argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=@,+%".contains($0) }
            return plain ? argument : "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }.joined(separator: " ")
    }
}
