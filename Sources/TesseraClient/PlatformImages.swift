import Delivery
import Foundation
import TesseraCore
#if canImport(SwiftUI)
import SwiftUI
#endif

// Images as the app's UI frameworks take them. The file is the variant the build made for this
// device; its display scale comes from the manifest (a 3x variant draws at a third of its pixel
// size in points), never from guessing at the file name, which a build may have renamed.
// Compiled on Apple platforms only: Linux, where the tests run, has neither framework, so the
// tests pin `file(for:)`, the part that picks the file and its scale, and `resizing(for:)`, the
// catalog's slicing the image is made resizable with (Xcode compiles it into the rendition; a file
// from a bundle has none, so without it a sliced image would no longer stretch by its caps).

#if canImport(UIKit)
import UIKit

extension ResourceRequest {
    /// `asset`'s variant for this device as a `UIImage` at its display scale, decoded by UIKit,
    /// and resizable by its catalog's slicing as UIKit makes a sliced catalog image
    /// (`resizableImage(withCapInsets:resizingMode:)`). Throws, naming the file, when the access
    /// has not begun or UIKit cannot decode the file.
    public func image(named asset: String) throws(TesseraError) -> UIImage {
        let (url, scale) = try file(for: asset)
        guard let data = try? Data(contentsOf: url, options: .mappedIfSafe),
              let image = UIImage(data: data, scale: CGFloat(scale)) else {
            throw TesseraError(.invalidInput, file: url.path, origin: .client, reason: "UIKit cannot decode '\(asset)'")
        }
        guard let slicing = try resizing(for: asset) else { return image }
        let insets = slicing.capInsets
        return image.resizableImage(withCapInsets: UIEdgeInsets(top: CGFloat(insets.top), left: CGFloat(insets.left),
                                                                bottom: CGFloat(insets.bottom), right: CGFloat(insets.right)),
                                    resizingMode: slicing.center.mode == .stretch ? .stretch : .tile)
    }
}

#if canImport(SwiftUI)
extension Image {
    /// `asset`'s variant for this device from an access that has begun: `try Image("Boss", from: request)`.
    public init(_ asset: String, from request: ResourceRequest) throws(TesseraError) {
        self.init(uiImage: try request.image(named: asset))
    }
}
#endif

#elseif canImport(AppKit)
import AppKit

extension ResourceRequest {
    /// `asset`'s variant for this device as an `NSImage` sized in points by its display scale
    /// (AppKit would otherwise size it from the file's DPI), with its catalog's slicing as AppKit
    /// gives a sliced catalog image (`capInsets`, `resizingMode`). Throws, naming the file, when
    /// the access has not begun or AppKit cannot decode the file.
    public func image(named asset: String) throws(TesseraError) -> NSImage {
        let (url, scale) = try file(for: asset)
        guard let image = NSImage(contentsOf: url), let pixels = image.representations.first else {
            throw TesseraError(.invalidInput, file: url.path, origin: .client, reason: "AppKit cannot decode '\(asset)'")
        }
        image.size = NSSize(width: CGFloat(pixels.pixelsWide) / CGFloat(scale), height: CGFloat(pixels.pixelsHigh) / CGFloat(scale))
        if let slicing = try resizing(for: asset) {
            let insets = slicing.capInsets
            image.capInsets = NSEdgeInsets(top: CGFloat(insets.top), left: CGFloat(insets.left),
                                           bottom: CGFloat(insets.bottom), right: CGFloat(insets.right))
            image.resizingMode = slicing.center.mode == .stretch ? .stretch : .tile
        }
        return image
    }
}

#if canImport(SwiftUI)
extension Image {
    /// `asset`'s variant for this device from an access that has begun: `try Image("Boss", from: request)`.
    public init(_ asset: String, from request: ResourceRequest) throws(TesseraError) {
        self.init(nsImage: try request.image(named: asset))
    }
}
#endif
#endif
