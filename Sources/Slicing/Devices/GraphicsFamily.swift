/// Apple's GPU feature sets as asset catalogs name them, ranked so "at least" can be compared.
///
/// Catalogs use Metal feature-set names (`metal1v2` … `metal4v1`) and GPU families (`apple1` …
/// `apple10`); both map onto one scale of the A-series GPU generation that introduced them.
public enum GraphicsFamily {
    static let ranks: [String: Int] = [
        "metal1v2": 1, "apple1": 1,
        "metal2v2": 2, "apple2": 2,
        "metal3v1": 3, "apple3": 3,
        "metal3v2": 4, "apple4": 4,
        "metal4v1": 5, "apple5": 5,
        "apple6": 6, "apple7": 7, "apple8": 8, "apple9": 9, "apple10": 10,
    ]

    public static func rank(of name: String) -> Int? { ranks[name] }
}
