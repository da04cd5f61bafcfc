import TesseraCore

/// What the walk of a plain folder finds: image files named the Xcode way or kept in Android
/// resource folders, grouped by asset name, and the catalogs inside (read afterwards). Hidden
/// names are never read, nor is anything below a hidden folder.
struct FolderScan {
    let root: String
    let boundary: InputBoundary
    let unsuffixedScale: DisplayScale
    /// Each asset's files, with their traits.
    private(set) var grouped: [AssetID: [CatalogEntry]] = [:]
    /// `.xcassets` folders, relative to the root.
    private(set) var catalogs: [String] = []
    /// macOS `.iconset` folders, relative to the root (`MacIconSet`).
    private(set) var iconSets: [String] = []
    /// Icon Composer `.icon` bundles, relative to the root (`IconComposerIcon`).
    private(set) var iconComposers: [String] = []
    private(set) var problems: [CatalogProblem] = []
    /// Android folder names already warned about: one warning per name, however many copies.
    private var warnedFolders: Set<String> = []

    init(root: String, boundary: InputBoundary, unsuffixedScale: DisplayScale) {
        self.root = root
        self.boundary = boundary
        self.unsuffixedScale = unsuffixedScale
    }

    /// Xcode's template puts SwiftUI preview assets in a `Preview Content` folder (its catalog
    /// `Preview Assets.xcassets`) and lists it in DEVELOPMENT_ASSET_PATHS, so an archive leaves
    /// it out; Tessera, which does not read the project, goes by those names.
    static func isDevelopmentAssets(_ entry: FolderWalk.Entry) -> Bool {
        entry.kind == .folder && (entry.name == "Preview Content" || entry.name == "Preview Assets.xcassets")
    }

    /// Takes in one walk entry; true when the walk should go into it (a plain folder).
    mutating func visit(_ entry: FolderWalk.Entry) -> Bool {
        if entry.name.hasPrefix(".") { return false }
        guard entry.hasUTF8Name else {
            // Read back through a lossy decoding it named no file ("No such file or directory").
            problems.append(CatalogProblem(
                isError: true, file: entry.path, key: nil,
                reason: "the \(entry.kind == .folder ? "folder" : "file") name is not valid UTF-8 (shown with \u{FFFD} for the bytes that are not); Tessera, Xcode and the stores need UTF-8 names: rename it"))
            return false
        }
        let path = "\(root)/\(entry.path)"
        let isCatalog = entry.path.hasSuffix(".xcassets")
        if entry.kind == .folder || isCatalog {
            if boundary.isExcluded(path) { return false }
            if entry.kind == .folder, entry.path.hasSuffix(".iconset") {
                iconSets.append(entry.path)
                return false
            }
            if entry.kind == .folder, IconComposerIcon.isBundle(path) {
                iconComposers.append(entry.path)
                return false
            }
            if Self.isDevelopmentAssets(entry) {
                problems.append(CatalogProblem(
                    isError: false, file: entry.path, key: nil,
                    reason: "development assets (Xcode's SwiftUI previews: `Preview Content`, `Preview Assets.xcassets`), which release builds leave out (DEVELOPMENT_ASSET_PATHS); not shipped. Give it as --input to build it anyway"))
                return false
            }
            guard isCatalog else { return true }
            if boundary.contains(path) { catalogs.append(entry.path) } else { outside(entry.path) }
            return false
        }
        let (fileStem, mixedCase) = FolderCatalogReader.split(entry.name)
        let ext = mixedCase.lowercased()
        let android = entry.folders.last.flatMap(AndroidResourceFolder.init(folderName:))
        let format = ImageFormat(fileExtension: ext)
        // Android XML drawables (vectors, shapes, selectors) are carried as data.
        guard format != nil || (android != nil && ext == "xml") else {
            if FolderCatalogReader.unhandledImageExtensions.contains(ext) {
                problems.append(CatalogProblem(
                    isError: false, file: entry.path, key: nil,
                    reason: "Tessera cannot handle '.\(ext)' images (not PNG, JPEG, WebP, GIF, PDF, SVG or HEIC); not carried"))
            }
            return false
        }
        // The walk never enters a link, so only a link can lead outside the folder.
        guard entry.kind != .symbolicLink || boundary.contains(path) else {
            outside(entry.path)
            return false
        }
        if let problem = InputBoundary.notARegularFile(path) {
            problems.append(CatalogProblem(isError: true, file: entry.path, key: nil, reason: problem))
            return false
        }
        let name: String, traits: VariantTraits
        if let android {
            traits = android.traits
            name = (entry.folders.dropLast() + [fileStem]).joined(separator: "/")
            if let warning = android.unreadWarning(folder: entry.folders.joined(separator: "/")),
               let folderName = entry.folders.last, warnedFolders.insert(folderName).inserted {
                problems.append(warning)
            }
        } else {
            let read = XcodeFileName(stem: fileStem, unsuffixedScale: unsuffixedScale)
            traits = read.traits
            name = (entry.folders + [read.name]).joined(separator: "/")
        }
        grouped[AssetID(name), default: []].append(CatalogEntry(file: entry.path, traits: traits, format: format))
        return false
    }

    /// The folder's assets, untagged (`TagRules` tag them): an image asset per name, and a data
    /// asset for Android XML drawables of the same name (kept apart from the bitmaps).
    func assets() -> [CatalogAsset] {
        var assets: [CatalogAsset] = []
        for (name, entries) in grouped {
            let tags: [String] = []
            let sorted = entries.sorted { $0.file < $1.file }
            let images = sorted.filter { $0.format != nil }, xml = sorted.filter { $0.format == nil }
            if !images.isEmpty {
                var bitmaps = CatalogAsset(name: name, kind: .image, entries: images, tags: tags, contentsFile: nil)
                // Android chooses among both kinds as one resource (`VariantSelector`).
                bitmaps.xmlDrawables = xml
                assets.append(bitmaps)
            }
            if !xml.isEmpty {
                assets.append(CatalogAsset(name: name, kind: .data, entries: xml, tags: tags, contentsFile: nil))
            }
        }
        return assets
    }

    private mutating func outside(_ path: String) {
        problems.append(CatalogProblem(isError: true, file: path, key: nil,
                                       reason: "a link to a path outside the input folder; not read"))
    }
}
