/// How one decode claims ids in the page's namespaces: in document order, in the page's
/// ledger, or (a stretch of a parallel section list) queued for the caller to claim when
/// the stretch is merged.
struct DecodeIdentity {
    /// The page's id namespaces, claimed in document order as widgets and sections decode.
    var ledger = IdentityLedger()
    /// Set on a stretch that decodes on a thread of its own: claims then wait in
    /// ``deferred``, in document order, for the caller to make them in the page's ledger
    /// (see `PageSchema.decodeSectionsInParallel`). A constant, so that the check every
    /// claim makes is one load.
    let defersClaims: Bool
    /// The claims a stretch queued (empty unless ``defersClaims``).
    var deferred = DeferredClaims()

    init(defersClaims: Bool) { self.defersClaims = defersClaims }
}
