import Foundation
import FlowCore
import FlowJSON
import FlowWidgets
import FlowWorkloads

/// Every benchmark, in report order. Each issue that adds an operation adds its
/// benchmarks here.
public enum Suites {
    public static let all: [Benchmark] = json + page + hostContent + operations + runtime + hostile

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
                Benchmark("json.scan.parallel/\(input.name)",
                          "FlowJSON: validate and index in parts on every core (\(PageDecodingOptions.defaultThreads) threads here)",
                          workload: input.workload, quick: input.quick, gates: false, countsInstructions: false,
                          peers: [.init(name: "json.scan/\(input.name)", label: "vs one thread")]) { w in
                    let bytes = w.bytes
                    let options = JSONScanOptions(threads: PageDecodingOptions.defaultThreads)
                    return Operation(bytes: bytes.count) { try! JSONDocument(bytes: bytes, options: options) }
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
                "page.decode.fast/\(size)", "Page decode, fast path on one thread (tape, no Codable on the envelope)", workload: .page(widgets: widgets),
                quick: quick || widgets == 10_000, countsInstructions: widgets <= 10_000,
                peers: referenceRuns ? [.init(name: "page.decode.reference/\(size)", label: "vs reference path")] : []) { w in
                let bytes = w.bytes
                let decoder = LoadedWorkload.decoder
                let widgetCount = w.decoded.page.widgetCount
                return Operation(bytes: bytes.count, widgets: widgetCount) { try! decoder.decode(bytes) }
            })
            result.append(Benchmark(
                "page.decode.parallel/\(size)", "Page decode, fast path, sections on every core (\(PageDecodingOptions.defaultThreads) threads here)",
                workload: .page(widgets: widgets), quick: quick, gates: false, countsInstructions: false,
                peers: [.init(name: "page.decode.fast/\(size)", label: "vs one thread")]
                    + (referenceRuns ? [.init(name: "page.decode.reference/\(size)", label: "vs reference path")] : [])) { w in
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
            let decoder = LoadedWorkload.decoder
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
                let decoder = LoadedWorkload.decoder
                let widgetCount = w.decoded.page.widgetCount
                return Operation(bytes: bytes.count, widgets: widgetCount) { try! decoder.decode(bytes) }
            })
        }
        return result
    }
}

extension Suites {
    // MARK: Operations on a decoded page (merge, mutations, diff)

    /// Widget ids spread over the page: one from each section in turn (up to 4,000).
    static func targets(_ w: LoadedWorkload) -> [String] {
        var list: [String] = []
        let sections = w.decoded.page.sections
        var i = 0
        while list.count < 4_000 && !sections.isEmpty && i < 200 * sections.count {
            let s = sections[i % sections.count]
            let j = i / sections.count
            if j < s.widgets.count { list.append(s.widgets[j].id) }
            i += 1
        }
        return list
    }

    static var operations: [Benchmark] {
        var result: [Benchmark] = []
        let decoder = LoadedWorkload.decoder
        for widgets in sizes {
            let size = label(widgets)
            let quick = widgets == 1_000
            let heavy = widgets == 100_000
            let redecode = Benchmark.Peer(name: "page.decode.fast/\(size)", label: "vs re-decoding the page")
            result.append(Benchmark(
                "page.merge/\(size)+1k", "Append a 1k-widget next page (pagination) to the page, in place", workload: .page(widgets: widgets),
                quick: quick, countsInstructions: !heavy,
                peers: widgets == 1_000 ? [] : [.init(name: "page.merge/1k+1k", label: "vs merging onto a 1k page")]) { w in
                var page = w.ownPage()
                // Eight different next pages, cycled: the page grows as a feed does.
                let nexts = (0..<8).map { PageGenerator(.init(widgets: 1_000, seed: UInt64(100 + $0), firstSection: 1_000 + $0)).generateNextPage() }
                var k = 0
                return Operation(bytes: nexts[0].count, widgets: 1_000) {
                    k += 1
                    return try! decoder.append(nextPage: nexts[k % nexts.count], to: &page)
                }
            })
            result.append(Benchmark(
                "page.mutate.replace/\(size)", "Read an api response and replace one widget by id (anywhere on the page)",
                workload: .page(widgets: widgets), quick: quick || heavy, countsInstructions: !heavy, peers: [redecode]) { w in
                var page = w.ownPage()
                let list = Suites.targets(w)
                let responses = list.prefix(64).map { id in
                    Array(#"{"mutations":[{"kind":"replace_widget","id":"\#(id)","widget":{"type":"title_block","data":{"title":"Favourited","subtitle":{"text":"Saved to your list"}},"actions":{"tap":{"type":"toast","message":"Saved"}}}}],"toast":{"message":"Added to favourites"}}"#.utf8)
                }
                var k = 0
                return Operation(bytes: responses[0].count) {
                    k += 1
                    let response = try! decoder.decodeMutations(responses[k % responses.count])
                    return decoder.apply(response, to: &page)
                }
            })
            result.append(Benchmark(
                "page.mutate.remove/\(size)", "Read an api response and remove one widget by id", workload: .page(widgets: widgets),
                quick: quick || heavy, countsInstructions: !heavy, peers: [redecode]) { w in
                var page = w.ownPage()
                let responses = Suites.targets(w).map { Array(#"{"mutations":[{"kind":"remove_widget","id":"\#($0)"}]}"#.utf8) }
                var k = 0
                return Operation(bytes: responses[0].count, maxCalls: responses.count) {
                    defer { k += 1 }
                    let response = try! decoder.decodeMutations(responses[k % responses.count])
                    return decoder.apply(response, to: &page)
                }
            })
        }
        let big = Workload.page(widgets: 100_000)
        let section = #"{"id":"S","layout":{"arrangement":"carousel"},"header":{"type":"title_block","data":{"title":"More for you"}},"widgets":["# +
            (0..<40).map { #"{"type":"image_text_card","id":"more_\#($0)","data":{"title":"Card \#($0)","image":"https://img.example-cdn.com/m/\#($0).jpg"}}"# }.joined(separator: ",") + "]}"
        for (kind, name) in [("append_sections", "append"), ("prepend_sections", "prepend")] {
            result.append(Benchmark(
                "page.mutate.\(name)/100k", "Read an api response and \(name) one 40-widget section to a 100k-widget page",
                workload: big, countsInstructions: false, peers: [.init(name: "page.decode.fast/100k", label: "vs re-decoding the page")]) { w in
                var page = w.ownPage()
                let response = Array((#"{"mutations":[{"kind":"\#(kind)","sections":["# + section + "]}]}").utf8)
                return Operation(bytes: response.count, widgets: 41) {
                    decoder.apply(try! decoder.decodeMutations(response), to: &page)
                }
            })
        }
        result.append(Benchmark(
            "page.mutate.replace_page/1k", "Read an api response that replaces the whole page with a 1k-widget page", workload: .page(widgets: 1_000),
            quick: true, peers: [.init(name: "page.decode.fast/1k", label: "vs decoding the same page")]) { w in
            var page = w.ownPage()
            let response = Array(#"{"mutations":[{"kind":"replace_page","page":"#.utf8) + Array(w.bytes.drop { $0 != UInt8(ascii: ":") }.dropFirst()) + Array("]}".utf8)
            return Operation(bytes: response.count, widgets: page.widgetCount) {
                decoder.apply(try! decoder.decodeMutations(response), to: &page)
            }
        })
        for widgets in [10_000, 100_000] {
            let size = label(widgets)
            result.append(Benchmark(
                "page.diff/\(size)", "Refresh diff of two pages with about 15% of widgets changed (insert, remove, update, move)",
                workload: .page(widgets: widgets), quick: widgets == 10_000, countsInstructions: widgets == 10_000,
                peers: [.init(name: "page.diff.stdlib/\(size)", label: "vs CollectionDifference")]) { w in
                let old = w.decoded.page
                let new = try decoder.decode(RefreshGenerator.changed(w.bytes, rate: 0.15, seed: 5)).page
                return Operation(widgets: old.widgetCount) { PageDiff(old: old, new: new) }
            })
            result.append(Benchmark(
                "page.diff.stdlib/\(size)", "Standard library difference(from:).inferringMoves() on the same id lists (competitor)",
                workload: .page(widgets: widgets), quick: widgets == 10_000, gates: false, countsInstructions: false) { w in
                let oldIDs = w.decoded.page.sections.flatMap { $0.widgets.map(\.id) }
                let new = try decoder.decode(RefreshGenerator.changed(w.bytes, rate: 0.15, seed: 5)).page
                let newIDs = new.sections.flatMap { $0.widgets.map(\.id) }
                // Quadratic in the changes: at 100k a single call takes a minute or more.
                return Operation(widgets: oldIDs.count, maxCalls: widgets > 10_000 ? 1 : nil) { newIDs.difference(from: oldIDs).inferringMoves() }
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
