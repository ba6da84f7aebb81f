/// A namespace widgets claim their ids in: the page's, or one accordion's own.
enum WidgetNamespace {
    case page
    case local(ClaimsBox)
}

/// The claims of one accordion's items, shared by reference while its list decodes.
final class ClaimsBox {
    var claims = NameClaims()
}
