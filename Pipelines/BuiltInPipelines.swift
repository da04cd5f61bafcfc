/// The pipelines a `tessera` installed anywhere knows by name: this folder's YAML files, embedded
/// in the binary at build time (SwiftPM's `embedInCode`), so `tessera run app-thinning --input
/// MyApp --output build` works outside this repository and `tessera init app-thinning` writes a
/// copy to edit. `samples.yml` is left out: it only makes sense for `Samples/`.
public enum BuiltInPipelines {
    /// Each built-in pipeline's name (`tessera run NAME`) and YAML text, by name.
    public static let all: [(name: String, text: String)] = [
        ("app-thinning", String(decoding: PackageResources.app_thinning_yml, as: UTF8.self)),
        ("android", String(decoding: PackageResources.android_yml, as: UTF8.self)),
    ]

    /// The YAML of the built-in pipeline called `name`, or nil.
    public static func text(named name: String) -> String? {
        all.first { $0.name == name }?.text
    }

    /// The names, for messages and help: `app-thinning, android`.
    public static var names: String { all.map(\.name).joined(separator: ", ") }
}
