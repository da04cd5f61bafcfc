/// Where a build puts the assets no on-demand tag names (`stages.pack.untagged`).
///
/// Xcode keeps every untagged set in the app's `Assets.car` and turns only tagged sets into
/// packs; Play Asset Delivery leaves `res/` to aapt2. `app` makes the same split, so a team adopts
/// Tessera for its tagged assets without moving a line of the code that loads the rest
/// (`UIImage(named:)`, `R.drawable`). `pack` puts them in a downloaded base pack, for apps that
/// load everything through `TesseraClient`.
public enum UntaggedPlacement: String, Sendable, Codable, CaseIterable {
    /// Untagged sets stay in the app: written under `app/` for Xcode or Gradle to compile.
    case app
    /// Untagged sets go in the initial-install `base` pack.
    case pack
}
