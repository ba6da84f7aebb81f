import FlowJSON

extension Widget {
    /// See `Fingerprint`: equal for widgets whose type, layout, data, actions and tracking
    /// are spelled the same. The decoder stores it; otherwise it is computed when asked, by
    /// writing the widget and hashing that text as the decoder hashes its element.
    public var fingerprint: UInt64 {
        if let stored = storedFingerprint { return stored }
        var writer = JSONWriter()
        PageEncoder.write(self, to: &writer)
        guard let document = try? JSONDocument(bytes: writer.bytes) else { return 1 }
        return document.withView { Fingerprint.widget($0, 0) }
    }
}
