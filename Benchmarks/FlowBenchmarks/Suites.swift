import Foundation
import FlowCore
import FlowJSON
import FlowWidgets

/// Every benchmark, in report order. Each issue that adds an operation adds its
/// benchmarks here.
public enum Suites {
    public static let all: [Benchmark] = json + page

    /// Page sizes swept by default: how each cost grows from 1k to 100k widgets.
    static let sizes = [1_000, 10_000, 100_000]

    static func label(_ widgets: Int) -> String { widgets % 1000 == 0 ? "\(widgets / 1000)k" : "\(widgets)" }

    // MARK: JSON

    static let jsonInputs: [(name: String, workload: Workload, quick: Bool)] = [
        ("twitter", .jsonExample("twitter"), true),
        ("citm_catalog", .jsonExample("citm_catalog"), false),
        ("canada", .jsonExample("canada"), false),
        ("page-20k", .page(widgets: 20_000), false),
        ("page-1k", .page(widgets: 1_000), true),
    ]

    static var json: [Benchmark] {
        jsonInputs.flatMap { input -> [Benchmark] in
            let big = input.name == "page-20k"
            return [
                Benchmark("json.scan/\(input.name)", "FlowJSON: validate and index (the tape)", workload: input.workload, quick: input.quick,
                          countsInstructions: !big,
                          peers: [.init(name: "json.foundation-serialization/\(input.name)", label: "vs JSONSerialization"),
                                  .init(name: "json.foundation-decoder/\(input.name)", label: "vs JSONDecoder")]) { w in
                    let bytes = w.bytes
                    return Operation(bytes: bytes.count) { try! JSONDocument(bytes: bytes) }
                },
                Benchmark("json.tree/\(input.name)", "FlowJSON: scan, then build a JSONValue tree", workload: input.workload, quick: false,
                          countsInstructions: !big,
                          peers: [.init(name: "json.foundation-serialization/\(input.name)", label: "vs JSONSerialization")]) { w in
                    let bytes = w.bytes
                    return Operation(bytes: bytes.count) { try! JSONValue(parsing: bytes) }
                },
                Benchmark("json.foundation-serialization/\(input.name)", "Foundation JSONSerialization.jsonObject (competitor)",
                          workload: input.workload, quick: input.quick, gates: false, countsInstructions: false) { w in
                    let data = Data(w.bytes)
                    return Operation(bytes: data.count) { try! JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) }
                },
                Benchmark("json.foundation-decoder/\(input.name)", "Foundation JSONDecoder into a generic JSON tree (competitor)",
                          workload: input.workload, quick: input.quick, gates: false, countsInstructions: false) { w in
                    let data = Data(w.bytes)
                    return Operation(bytes: data.count) { try! JSONDecoder().decode(AnyJSON.self, from: data) }
                },
            ]
        }
    }

    // MARK: Pages

    static var page: [Benchmark] {
        var result: [Benchmark] = []
        for widgets in sizes + [20_000] {
            let size = label(widgets)
            let quick = widgets == 1_000
            let referenceRuns = widgets <= 20_000
            result.append(Benchmark(
                "page.decode.fast/\(size)", "Page decode, fast path (tape, no Codable on the envelope)", workload: .page(widgets: widgets),
                quick: quick || widgets == 10_000, countsInstructions: widgets <= 10_000,
                peers: referenceRuns ? [.init(name: "page.decode.reference/\(size)", label: "vs reference path")] : []) { w in
                let bytes = w.bytes
                let decoder = PageDecoder(registry: LoadedWorkload.registry)
                let widgetCount = w.decoded.page.widgetCount
                return Operation(bytes: bytes.count, widgets: widgetCount) { try! decoder.decode(bytes) }
            })
            if referenceRuns {
                result.append(Benchmark(
                    "page.decode.reference/\(size)", "Page decode, reference path (Foundation JSONDecoder)", workload: .page(widgets: widgets),
                    quick: quick, gates: false, countsInstructions: false) { w in
                    let bytes = w.bytes
                    let decoder = ReferencePageDecoder(registry: LoadedWorkload.registry)
                    let widgetCount = w.decoded.page.widgetCount
                    return Operation(bytes: bytes.count, widgets: widgetCount) { try! decoder.decode(bytes) }
                })
            }
            result.append(Benchmark(
                "page.identity/\(size)", "Identity pass: claim every widget and section id of the page", workload: .page(widgets: widgets),
                quick: quick, countsInstructions: widgets <= 10_000,
                peers: [.init(name: "page.decode.fast/\(size)", label: "of decode time", isShare: true)]) { w in
                let page = w.decoded.page
                let ids = page.allWidgets.map(\.id)
                let sectionIDs = page.sections.map(\.id)
                return Operation(widgets: ids.count) { IdentityLedger.claiming(widgetIDs: ids, sectionIDs: sectionIDs) }
            })
            result.append(Benchmark(
                "page.encode/\(size)", "PageEncoder: write a decoded page back as JSON", workload: .page(widgets: widgets),
                quick: quick, countsInstructions: widgets <= 10_000) { w in
                let page = w.decoded.page
                return Operation(bytes: w.bytes.count, widgets: page.widgetCount) { PageEncoder.encode(page) }
            })
        }
        result.append(Benchmark(
            "page.normalize/corpus", "Normalize every corpus page: decode, then write back", workload: .corpusPages, quick: true) { w in
            let documents = w.documents
            let decoder = PageDecoder(registry: LoadedWorkload.registry)
            return Operation(bytes: w.totalBytes) {
                var written: [[UInt8]] = []
                for d in documents {
                    if let decoded = try? decoder.decode(d) { written.append(PageEncoder.encode(decoded.page)) }
                }
                return written
            }
        })
        for ids in [Workload.IDs.allSame, .allDistinct] {
            result.append(Benchmark(
                "page.decode.ids-\(ids == .allSame ? "same" : "distinct")/50k",
                ids == .allSame ? "Page decode where all 50,000 widgets send the same id (renaming worst case)"
                    : "Page decode where all 50,000 widgets send distinct ids",
                workload: .page(widgets: 50_000, ids: ids), quick: false, countsInstructions: false,
                peers: ids == .allSame ? [.init(name: "page.decode.ids-distinct/50k", label: "vs distinct ids")] : []) { w in
                let bytes = w.bytes
                let decoder = PageDecoder(registry: LoadedWorkload.registry)
                let widgetCount = w.decoded.page.widgetCount
                return Operation(bytes: bytes.count, widgets: widgetCount) { try! decoder.decode(bytes) }
            })
        }
        return result
    }
}

/// A generic JSON tree decoded through Foundation's JSONDecoder (the competitor to a
/// FlowJSON scan when the output is a tree).
struct AnyJSON: Decodable {
    let value: Any?

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var result: [String: Any?] = [:]
            for key in object.allKeys { result[key.stringValue] = try object.decode(AnyJSON.self, forKey: key).value }
            value = result
        } else if var array = try? decoder.unkeyedContainer() {
            var result: [Any?] = []
            while !array.isAtEnd { result.append(try array.decode(AnyJSON.self).value) }
            value = result
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = nil
            } else if let b = try? single.decode(Bool.self) {
                value = b
            } else if let s = try? single.decode(String.self) {
                value = s
            } else {
                value = try single.decode(Double.self)
            }
        }
    }
}
