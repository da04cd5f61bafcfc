import TesseraCore

/// Globs over asset names mapped to on-demand tags, from the input's `tessera.yml` or the
/// pipeline's `app.tags`: applied to every asset the build reads, catalog sets and plain-folder
/// files alike, so a team tags sets without editing their `Contents.json`.
///
/// A rule adds its tags to those the asset already has (a catalog's own tags stay); a rule that
/// matches no asset is a warning naming where it was written and its glob, since a typo in a glob
/// would otherwise leave a whole group of sets untagged, in the app, without a word.
public struct TagRules: Sendable, Hashable, Codable {
    public struct Rule: Sendable, Hashable, Codable {
        public var glob: String
        public var tags: [String]
        /// Where the rule was written (`tessera.yml:3:3`, `app.yml:12:5`), for messages.
        public var origin: String
        /// Its dotted key in that file (`tags.levels/**`, `app.tags.levels/**`).
        public var key: String

        public init(glob: String, tags: [String], origin: String, key: String? = nil) {
            self.glob = glob
            self.tags = tags
            self.origin = origin
            self.key = key ?? "tags.\(glob)"
        }
    }

    /// In the order written.
    public var rules: [Rule]

    public init(_ rules: [Rule] = []) { self.rules = rules }

    public var isEmpty: Bool { rules.isEmpty }

    /// `assets` with every matching rule's tags added (sorted, unique), and a warning for each rule
    /// that matched nothing (`file` is the rule's origin).
    public func apply(to assets: [CatalogAsset]) -> (assets: [CatalogAsset], problems: [CatalogProblem]) {
        guard !rules.isEmpty else { return (assets, []) }
        let globs = rules.map { Glob($0.glob) }
        var matched = [Bool](repeating: false, count: rules.count)
        let tagged = assets.map { asset in
            var asset = asset
            var tags = Set(asset.tags)
            for (index, glob) in globs.enumerated() where glob.matches(asset.name.name) {
                matched[index] = true
                tags.formUnion(rules[index].tags)
            }
            asset.tags = tags.sorted()
            return asset
        }
        let problems = rules.indices.filter { !matched[$0] }.map { index in
            CatalogProblem(isError: false, file: rules[index].origin, key: rules[index].key,
                           reason: "the glob matches no asset, so its tags (\(rules[index].tags.joined(separator: ", "))) tag nothing")
        }
        return (tagged, problems)
    }
}
