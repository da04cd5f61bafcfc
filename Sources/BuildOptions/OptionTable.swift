/// Every option of a pipeline file, each declared once (`docs/pipeline-format.md` lists them in
/// this order). The command-line options of `convert`, `downscale`, `timing` and `bundle create`
/// that mean the same thing are declared from these, under the same names.
public enum OptionTable {
    public static let all: [any DeclaredOption] =
        Decode.all + Variants.all + Rasterize.all + Downscale.all + Encode.all + Decompress.all + Timing.all + Slice.all + Pack.all
        + Manifest.all + Report.all
}
