import FlowJSON

extension FoldedStacks {
    /// The stacks in speedscope's own file format (https://www.speedscope.app/file-format-schema.json):
    /// one sampled profile whose samples are the stacks, each weighted by its instructions, so
    /// that speedscope's left-heavy and sandwich views rank functions by what they cost. The
    /// unit is `none` (speedscope has no unit for instructions); frames are shared, each name
    /// once, and stacks come in name order, so the same stacks always give the same file.
    public func speedscope(name: String, exporter: String) -> [UInt8] {
        var frameIndex: [String: Int] = [:]
        var frames: [JSONValue] = []
        var samples: [JSONValue] = []
        var weights: [JSONValue] = []
        for (stack, count) in counts.sorted(by: { $0.key < $1.key }) where count > 0 {
            let indices = stack.split(separator: ";", omittingEmptySubsequences: false).map { frame -> Int in
                let key = String(frame)
                if let i = frameIndex[key] { return i }
                frameIndex[key] = frames.count
                frames.append(.object(["name": .string(key)]))
                return frames.count - 1
            }
            samples.append(.array(indices.map { .number(JSONNumber(Int64($0))) }))
            weights.append(.number(JSONNumber(Int64(count))))
        }
        var profile = JSONObject()
        profile.append("type", "sampled")
        profile.append("name", .string(name))
        profile.append("unit", "none")
        profile.append("startValue", .number(JSONNumber(Int64(0))))
        profile.append("endValue", .number(JSONNumber(Int64(total))))
        profile.append("samples", .array(samples))
        profile.append("weights", .array(weights))
        var file = JSONObject()
        file.append("$schema", "https://www.speedscope.app/file-format-schema.json")
        file.append("shared", .object(["frames": .array(frames)]))
        file.append("profiles", .array([.object(profile)]))
        file.append("name", .string(name))
        file.append("activeProfileIndex", .number(JSONNumber(Int64(0))))
        file.append("exporter", .string(exporter))
        return JSONWriter.encode(.object(file))
    }
}
