import FlowJSON

/// The state one decode carries: where it is, what it has recorded, and what it was asked;
/// and, each a value of its own, how it claims ids (``DecodeIdentity``), what it shares
/// (``DecodeSharing``) and what of the index it gives back (``IndexRelease``).
///
/// A reference type passed down (never copied) so that the path stack and the diagnostics
/// list grow in place: pushing a path component costs an array append, and the dotted
/// string is built only when something is recorded.
///
/// Its mutable properties are `@exclusivity(unchecked)`: a context belongs to one thread,
/// and no access to one of them overlaps another access to it (each is a single call, or
/// a save and a restore), so the dynamic checks the compiler would otherwise make (a
/// runtime call per access, for every widget) would find nothing.
@usableFromInline package final class DecodeContext {
    package let registry: WidgetRegistry
    package let options: PageDecodingOptions
    @exclusivity(unchecked) package private(set) var diagnostics: [Diagnostic] = []
    /// The diagnostic path of the value being decoded: a stack in a buffer of its own,
    /// grown by doubling, which the inline push and pop reach without an array's
    /// uniqueness and bounds checks (the decoder pushes for every widget).
    @usableFromInline @exclusivity(unchecked) var stackBase: UnsafeMutablePointer<PathComponent>
    @usableFromInline @exclusivity(unchecked) var stackCount = 0
    @usableFromInline @exclusivity(unchecked) var stackCapacity = 32
    /// The stack where it lies: valid until the next push or pop, so read at once.
    private var stack: UnsafeBufferPointer<PathComponent> { UnsafeBufferPointer(start: stackBase, count: stackCount) }
    /// The document the fast path reads (raw slices point into it); nil on the reference path.
    let document: JSONDocument?
    /// How ids are claimed: in the page's ledger, or queued by a stretch.
    @exclusivity(unchecked) var identity: DecodeIdentity
    /// The caches that share what is spelled alike.
    @exclusivity(unchecked) var sharing: DecodeSharing
    /// Giving back the index of finished sections.
    @exclusivity(unchecked) var indexRelease: IndexRelease
    /// The widget whose content is decoding, and the path depth at which it stands, so a
    /// nested widget list (an accordion's items) can continue its positional ids.
    @exclusivity(unchecked) var widgetPosition: WidgetPosition?
    @exclusivity(unchecked) var widgetPathDepth = 0
    /// The tape decoder the last host content decoded with, for the next one to reuse (see
    /// ``TapeDecoder/reusing(_:in:index:)``): a page of a host's widgets then
    /// allocates one decoder, not one per widget.
    @exclusivity(unchecked) var spareTapeDecoder: TapeDecoder?
    /// The recorder of this decode when `flow profile --trace` records it (see
    /// `PipelineTimeline`): set by the decode's entry point and handed to its stretches.
    @exclusivity(unchecked) var timeline: PipelineTimeline?

    /// The decode will not read the entries `entries` (a section it has finished) again.
    func doneWith(_ entries: Range<Int>) {
        guard indexRelease.isActive, let document else { return }
        indexRelease.doneWith(entries, in: document, timeline: timeline)
    }

    /// Gives back what ``doneWith(_:)`` has gathered (a stretch of sections at its end).
    func releaseFinishedEntries() {
        guard let document else { return }
        indexRelease.releaseFinished(in: document, timeline: timeline)
    }

    /// `releasesIndex`: the decode made `document` itself, so it may give back the index of
    /// the sections it has finished (see ``IndexRelease``).
    init(registry: WidgetRegistry, options: PageDecodingOptions, document: JSONDocument?, root: DecodePath,
         defersClaims: Bool = false, releasesIndex: Bool = false) {
        self.registry = registry
        self.options = options
        self.document = document
        self.identity = DecodeIdentity(defersClaims: defersClaims)
        self.sharing = DecodeSharing(document: document, options: options)
        self.indexRelease = IndexRelease(active: releasesIndex && document != nil, options: options)
        self.stackBase = .allocate(capacity: stackCapacity)
        for c in root.components { push(c) }
    }

    deinit {
        stackBase.deinitialize(count: stackCount)
        stackBase.deallocate()
    }

    /// The current dotted path.
    package var path: String { DecodePath.render(stack) }

    package var currentPath: DecodePath { DecodePath(Array(stack)) }

    /// Runs `body` with `component` pushed on the path.
    @inlinable @inline(__always)
    package func at<T>(_ component: PathComponent, _ body: () throws -> T) rethrows -> T {
        push(component)
        defer { pop(component) }
        return try body()
    }

    // Inline: the decoder pushes a key or an index for every widget, and out of line each
    // push and pop cost a call into the component's outlined copy and destroy.
    @inlinable @inline(__always)
    func push(_ c: PathComponent) {
        if stackCount == stackCapacity { growStack() }
        (stackBase + stackCount).initialize(to: c)
        stackCount += 1
    }

    /// Pops `pushed`, the component on top. An index holds nothing to release: popping
    /// one (every widget of a list) is a decrement.
    @inlinable @inline(__always)
    func pop(_ pushed: PathComponent) {
        stackCount -= 1
        if case .key = pushed { (stackBase + stackCount).deinitialize(count: 1) }
    }

    @usableFromInline @inline(never)
    func growStack() {
        let bigger = UnsafeMutablePointer<PathComponent>.allocate(capacity: stackCapacity * 2)
        bigger.moveInitialize(from: stackBase, count: stackCount)
        stackBase.deallocate()
        stackBase = bigger
        stackCapacity *= 2
    }

    /// Records a diagnostic at the current path (or at `component` below it).
    package func record(_ kind: Diagnostic.Kind, at component: PathComponent? = nil, type: String? = nil, _ message: @autoclosure () -> String) {
        var p = path
        if let component {
            switch component {
            case .key(let k): p += p.isEmpty ? k : "." + k
            case .index(let i): p += (p.isEmpty ? "" : ".") + String(i)
            }
        }
        diagnostics.append(Diagnostic(kind: kind, path: p, type: type, message: message()))
    }

    package func record(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    func record(contentsOf recorded: ArraySlice<Diagnostic>) { diagnostics.append(contentsOf: recorded) }

    /// Queues a claim in the page's namespaces, made later by the caller: a section's, or
    /// the widget's the current path ends in (a section's `header`, or a list element).
    func deferClaim(isSection: Bool) {
        var kind = DeferredClaims.Kind.header, position = -1
        if case .index(let i) = stackBase[stackCount - 1] { (kind, position) = (isSection ? .section : .widget, i) }
        identity.deferred.append(kind, diagnosticMark: diagnostics.count, position: position)
    }

    /// The positional-id prefix for a widget list nested in the content of the widget
    /// being decoded: that widget's position plus the path below it (`….data.items`).
    package var nestedListPrefix: String {
        guard let widgetPosition else { return path }
        return widgetPosition.path + "." + DecodePath.render(stack[widgetPathDepth...])
    }

    /// Runs `body` as the content decode of the widget at `position`.
    func decodingContent<T>(of position: WidgetPosition, _ body: () throws -> T) rethrows -> T {
        let saved = (widgetPosition, widgetPathDepth)
        widgetPosition = position
        widgetPathDepth = stackCount
        defer { (widgetPosition, widgetPathDepth) = saved }
        return try body()
    }

    /// A bookmark for ``rollBack(to:)``.
    package var diagnosticCount: Int { diagnostics.count }

    /// Forgets what was recorded since `mark`: a widget that is skipped reports only why,
    /// not what went wrong inside it.
    package func rollBack(to mark: Int) { diagnostics.removeSubrange(mark...) }
}

extension DecodeContext {
    /// A context for decoding a model outside any page (a host running `JSONDecoder` on an
    /// atom): no registry, default options.
    package static func standalone() -> DecodeContext {
        DecodeContext(registry: WidgetRegistry(), options: PageDecodingOptions(), document: nil, root: DecodePath())
    }
}
