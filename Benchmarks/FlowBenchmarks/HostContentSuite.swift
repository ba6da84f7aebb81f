import FlowCore
import FlowJSON

/// A host's own widget type, written as a host writes one: a plain `Decodable` with a few
/// scalar and string fields, registered in one call. Its content decodes through
/// ``TapeDecoder`` (the `Decoder` over the tape), the route every host widget takes.
struct RatingStars: Decodable, Sendable, Equatable {
    let stars: Double
    let count: Int
    let label: String
    let verified: Bool?
}

/// The same content written the way the library's starter types are (one field table and a
/// reader-generic initializer), so the two routes can be compared on the same page.
struct RatingStarsOnStarterRoute: FlowDecodable, Equatable {
    let stars: Double
    let count: Int
    let label: String
    let verified: Bool?

    enum Field: Int, CaseIterable { case stars, count, label, verified }
    static let fields = FieldTable<Field>(["stars", "count", "label", "verified"])

    init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a rating object", found: reader) }
        let f = o.fields(Self.fields)
        stars = try f.required(.stars)
        count = try f.required(.count)
        label = try f.required(.label)
        verified = try f.optional(.verified)
    }
}

extension Suites {
    /// A page of `widgets` rating widgets in sections of 100, values varied and deterministic.
    static func hostTypePage(widgets: Int) -> [UInt8] {
        var text = #"{"page":{"id":"reviews","sections":["#
        for s in 0..<(widgets + 99) / 100 {
            if s > 0 { text += "," }
            text += #"{"id":"s\#(s)","widgets":["#
            for i in 0..<min(100, widgets - s * 100) {
                let n = s * 100 + i
                if i > 0 { text += "," }
                let verified = n % 3 == 0 ? "" : #","verified":\#(n % 2 == 0)"#
                text += #"{"type":"rating_stars","id":"r\#(n)","data":{"stars":\#(Double(n % 9) / 2 + 0.5),"count":\#(n * 7 % 5000),"label":"Rated by \#(n % 50) readers"\#(verified)}}"#
            }
            text += "]}"
        }
        text += "]}}"
        return Array(text.utf8)
    }

    static var hostContent: [Benchmark] {
        var decodable = WidgetRegistry()
        decodable.register(RatingStars.self, as: "rating_stars")
        var starterRoute = WidgetRegistry()
        starterRoute.register(RatingStarsOnStarterRoute.self, as: "rating_stars")
        func decode(_ name: String, _ what: String, _ registry: WidgetRegistry, peers: [Benchmark.Peer]) -> Benchmark {
            Benchmark(name, what, workload: .hostTypePage(widgets: 1_000), quick: true, peers: peers) { w in
                let bytes = w.bytes
                let decoder = PageDecoder(registry: registry, options: LoadedWorkload.decoding)
                let widgets = try! decoder.decode(bytes).page.widgetCount
                precondition(widgets == 1_000, "every rating widget decodes")
                return Operation(bytes: bytes.count, widgets: widgets) { try! decoder.decode(bytes) }
            }
        }
        return [
            decode("page.decode.host-type/1k", "Page decode of 1,000 widgets of a host's plain Decodable type (through the tape Decoder)",
                   decodable, peers: [.init(name: "page.decode.host-type.starter-route/1k", label: "vs the starter types' route")]),
            decode("page.decode.host-type.starter-route/1k", "The same page, its type decoded the way the starter types are (field table, no Codable)",
                   starterRoute, peers: []),
        ]
    }
}
