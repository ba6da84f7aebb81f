import Foundation
import Testing
@testable import FlowJSON

/// The recorder's binding: a scan records its stages only inside `PipelineTimeline.bind`, and
/// `active` finds nothing outside one, whatever other tasks are doing.
@Suite struct PipelineTimelineTests {
    @Test func aScanRecordsOnlyInsideABinding() throws {
        let bytes = Array(#"{"a":[1,2,3],"b":"x"}"#.utf8)
        let timeline = PipelineTimeline()
        #expect(PipelineTimeline.active == nil)
        let inside = try PipelineTimeline.bind(timeline) { () throws(JSONSyntaxError) -> Bool in
            _ = try JSONDocument(bytes: bytes)
            return PipelineTimeline.active === timeline
        }
        #expect(inside)
        #expect(PipelineTimeline.active == nil, "the binding ends with its body")
        #expect(timeline.spans.contains { $0.name == "scan" }, "the scan recorded itself: \(timeline.spans.map(\.name))")
        let recorded = timeline.spans.count
        _ = try JSONDocument(bytes: bytes)
        #expect(timeline.spans.count == recorded, "a scan outside the binding records nothing")
    }

    @Test func aBindingEndsWhenItsBodyThrows() {
        let timeline = PipelineTimeline()
        #expect(throws: JSONSyntaxError.self) {
            try PipelineTimeline.bind(timeline) { () throws(JSONSyntaxError) in _ = try JSONDocument(bytes: Array("[1,".utf8)) }
        }
        #expect(PipelineTimeline.active == nil)
    }

    /// Another thread's binding is not this one's: this thread sees the count, reads its own
    /// task-local and finds nothing.
    @Test func anotherThreadsBindingIsNotThisOnes() {
        let timeline = PipelineTimeline()
        let bound = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), ended = DispatchSemaphore(value: 0)
        Thread {
            PipelineTimeline.bind(timeline) {
                bound.signal()
                release.wait()
            }
            ended.signal()
        }.start()
        bound.wait()
        #expect(PipelineTimeline.active == nil)
        release.signal()
        ended.wait()
    }
}
