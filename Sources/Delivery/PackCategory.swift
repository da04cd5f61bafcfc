/// When a pack reaches the device: with the app, right after install, or when a tag is asked for.
///
/// The raw values are what manifests, query answers and the CLI print (`docs/bundle-format.md`).
public enum PackCategory: String, Sendable, Codable, Hashable, CaseIterable {
    case initialInstall = "initial-install"
    case prefetch
    case onDemand = "on-demand"
}
