import Delivery

/// One pack's manifest in Apple's format, as `ba-package` reads it: `assetPackID`,
/// `downloadPolicy` (`essential` or `prefetch` with the installation events they apply to, or
/// `onDemand` with an empty object), `fileSelectors` (`{"file": path}`, relative to the folder
/// the tool runs in) and `platforms`. The JSON schema is `docs/schemas/managed-asset-pack.schema.json`.
struct ManagedAssetPackManifest: Encodable {
    struct Events: Encodable {
        let installationEventTypes: [String]
    }

    struct Policy: Encodable {
        var essential: Events?
        var prefetch: Events?
        var onDemand: [String: String]?
    }

    struct Selector: Encodable {
        let file: String
    }

    let assetPackID: String
    let downloadPolicy: Policy
    let fileSelectors: [Selector]
    let platforms: [String]

    /// Installed with the app and kept current across updates, as an initial-install or
    /// prefetch pack is.
    static let installEvents = Events(installationEventTypes: ["firstInstallation", "subsequentUpdate"])

    init(_ pack: ManagedAssetPack) {
        assetPackID = pack.id
        downloadPolicy = switch pack.category {
        case .initialInstall: Policy(essential: Self.installEvents)
        case .prefetch: Policy(prefetch: Self.installEvents)
        case .onDemand: Policy(onDemand: [:])
        }
        fileSelectors = pack.files.map(Selector.init)
        platforms = pack.platforms
    }

    /// The policy's key: `essential`, `prefetch` or `onDemand`.
    static func policyName(_ category: PackCategory) -> String {
        switch category {
        case .initialInstall: "essential"
        case .prefetch: "prefetch"
        case .onDemand: "onDemand"
        }
    }
}
