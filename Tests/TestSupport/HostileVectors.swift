/// The hostile vectors of issue 54, generated: each attacks what draws it, not the file reader.
public enum HostileVectors {
    /// A page whose content names missing XObjects spelling out forged answers (a 5 × 500 pt
    /// page): MuPDF prints the names raw on the stream the PDF worker answers on.
    public static func forgingPDF() -> [UInt8] {
        let forged = "/X#0A#01forged#20ok#201#200#200#205#20500#20false#0A Do /Y#0A#01ok#201#200#200#205#20500#20false#0A Do"
        return HandMadePDF.page(box: "0 0 10 10", content: forged).bytes()
    }

    /// `feConvolveMatrix` of order 21: librsvg panics, and a panic cannot unwind through C (SIGABRT).
    public static let panickingSVG = #"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="f"><feConvolveMatrix order="21" kernelMatrix=""#
        + Array(repeating: "1", count: 441).joined(separator: " ")
        + #""/></filter><rect width="100" height="100" fill="red" filter="url(#f)"/></svg>"#

    /// `feTurbulence` with 100,000,000 octaves: librsvg's cost is pixels × octaves, about 22
    /// hours per scale. `width` makes distinct files of it (a file over its time is remembered).
    public static func endlessSVG(width: Int = 100) -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="100"><filter id="t"><feTurbulence baseFrequency="0.05" numOctaves="100000000"/></filter><rect width="100" height="100" filter="url(#t)"/></svg>"#
    }
}
