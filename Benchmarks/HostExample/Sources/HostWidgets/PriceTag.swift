import FlowCore

/// `price_tag`: a price, the price it replaces, and a label (the host's own widget type).
///
/// A plain `Decodable`: registered in one call, it decodes on the fast path through the
/// library's tape decoder and on the reference path through Foundation's, and the oracles
/// check that the two agree.
public struct PriceTag: Decodable, Equatable, Sendable {
    public enum Style: String, Decodable, Sendable { case regular, sale, member }

    public let amount: Double
    public let currency: String
    /// The price before the sale, shown struck through.
    public let was: Double?
    public let label: String?
    public let style: Style?
}
