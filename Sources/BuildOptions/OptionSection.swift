import TesseraCore

/// The sections of a pipeline file's `stages:` mapping, each a group of options. Every section
/// but `variants` configures the build stage of the same name; `variants` is read while planning.
public enum OptionSection: String, Sendable, CaseIterable {
    case decode, variants, rasterize, downscale, encode, decompress, timing, slice, pack, manifest, report

    /// The stage whose jobs these options shape; nil for `variants`, which plans and runs no job.
    public var stage: ProblemOrigin? {
        switch self {
        case .decode: .decode
        case .variants: nil
        case .rasterize: .rasterize
        case .downscale: .downscale
        case .encode: .encode
        case .decompress: .decompress
        case .timing: .timing
        case .slice: .slice
        case .pack: .pack
        case .manifest: .manifest
        case .report: .report
        }
    }

    /// Every option of this section, in the order the docs list them.
    public var options: [any DeclaredOption] {
        OptionTable.all.filter { $0.section == self }
    }
}
