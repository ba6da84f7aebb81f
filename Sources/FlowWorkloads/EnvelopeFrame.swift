/// A fuzz input taken apart by its target's format (``EnvelopeMutator/Format``): the framing
/// bytes, kept as they are unless a ``EnvelopeMutator/Kind/reframe`` edits them, and the
/// JSON parts the mutator edits.
struct EnvelopeFrame {
    let format: EnvelopeMutator.Format
    var prefix: [UInt8]
    /// The JSON documents, joined by a NUL when there are two (``FuzzPairInput``).
    var parts: [[UInt8]]
    /// Where the one-bad-widget header starts in `prefix` (one byte in for a host's input).
    let headerStart: Int?
    let pageCount: Int

    /// Nil when the input does not fit the format (too short, no NUL between a pair's
    /// documents): libFuzzer's byte mutator then has the input.
    init?(_ input: [UInt8], format: EnvelopeMutator.Format, pages: Int) {
        self.format = format
        pageCount = pages
        switch format {
        case .document:
            (prefix, parts, headerStart) = ([], [input], nil)
        case .page:
            if let first = input.first, first & 0xC0 == 0x80 {
                (prefix, parts, headerStart) = ([first], [Array(input.dropFirst())], nil)
            } else {
                (prefix, parts, headerStart) = ([], [input], nil)
            }
        case .oneBadWidget:
            guard input.count >= 3 else { return nil }
            (prefix, parts, headerStart) = (Array(input[..<3]), [Array(input[3...])], 0)
        case .host:
            guard let first = input.first else { return nil }
            if first >= 0xC0 {
                guard input.count >= 4 else { return nil }
                (prefix, parts, headerStart) = (Array(input[..<4]), [Array(input[4...])], 1)
            } else if first >= 0x80 {
                (prefix, parts, headerStart) = ([first], [Array(input.dropFirst())], nil)
            } else {
                (prefix, parts, headerStart) = ([], [input], nil)
            }
        case .pair:
            guard let first = input.first else { return nil }
            let rest = input.dropFirst()
            if first & FuzzPairInput.ownDocuments != 0 {
                guard let split = rest.firstIndex(of: 0) else { return nil }
                (prefix, parts, headerStart) = ([first], [Array(rest[..<split]), Array(rest[(split + 1)...])], nil)
            } else {
                (prefix, parts, headerStart) = ([first], [Array(rest)], nil)
            }
        }
    }

    /// The index of the page the framing names (a one-bad-widget input's, or the page a pair
    /// pairs its document with), when it names one.
    var page: Int? {
        if let h = headerStart, prefix.count > h { return Int(prefix[h] & 0x0F) }
        if format == .pair, let first = prefix.first, first & FuzzPairInput.ownDocuments == 0, pageCount > 0 {
            return Int(first & 0x0F) % pageCount
        }
        return nil
    }

    var canReframe: Bool { format != .document }

    var bytes: [UInt8] {
        var out = prefix
        for (i, part) in parts.enumerated() {
            if i > 0 { out.append(0) }
            out += part
        }
        return out
    }

    /// Changes the framing: another slot, page or option bits for a one-bad-widget input,
    /// other options for a page or a pair (never a pair's own-documents bit, which would
    /// change how the rest splits).
    mutating func reframe(_ rng: inout SeededRandom, pages: Int) {
        if let h = headerStart {
            switch rng.below(3) {
            case 0:  // another slot: small numbers reach every page's early slots
                let slot = rng.chance(0.5) ? rng.below(64) : rng.below(1 << 16)
                prefix[h + 1] = UInt8(slot & 0xFF)
                prefix[h + 2] = UInt8(slot >> 8)
            case 1: prefix[h] ^= rng.chance(0.5) ? 0x10 : 0x20
            default: prefix[h] = prefix[h] & 0xF0 | UInt8(rng.below(max(pages, 1)) & 0x0F)
            }
            return
        }
        switch format {
        case .page, .host:
            let options = UInt8(rng.below(64))
            if prefix.isEmpty, rng.chance(0.5) { prefix = [0x80 | options] } else if prefix.isEmpty { prefix = [0x80] } else { prefix[0] = 0x80 | options }
        case .pair:
            if prefix[0] & FuzzPairInput.ownDocuments == 0, rng.chance(0.5) {
                prefix[0] = prefix[0] & 0xF0 | UInt8(rng.below(max(pages, 1)) & 0x0F)
            } else {
                prefix[0] ^= FuzzPairInput.placeholders
            }
        case .document, .oneBadWidget: break
        }
    }
}
