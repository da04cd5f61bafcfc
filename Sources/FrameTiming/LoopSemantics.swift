/// How many times an animation plays, from the loop field as stored.
///
/// GIF: no NETSCAPE2.0 block → plays once; 0 → forever; N → N + 1 plays. The field counts
/// *repeats* after the first play: that is how Chromium, Firefox and WebKit read it (Netscape's
/// original meaning), and a GIF saved with "loop 1" is meant to play twice. WebP: 0 → forever;
/// N → N plays, as its container specification defines the field.
public enum LoopSemantics {
    /// Plays, or nil for forever.
    public static func plays(loopField: Int?, isGIF: Bool) -> Int? {
        guard let loopField else { return 1 }
        if loopField == 0 { return nil }
        return isGIF ? loopField + 1 : loopField
    }
}
