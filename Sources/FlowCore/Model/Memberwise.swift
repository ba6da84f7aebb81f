/// A stored property of no size that gives a public model a memberwise initializer of its
/// own, for its public initializer to delegate to.
///
/// Swift synthesizes a memberwise initializer only for a struct that declares none in its
/// body, and a public one with the same labels would redeclare it. An initializer that
/// assigns stored properties one by one builds the value in a stack slot, and the optimizer
/// copies the finished value out of it (a retain and a release of every reference it holds,
/// for every decoded value). The synthesized initializer builds
/// the value in place. A private property of this type adds one label to the synthesized
/// initializer (so it does not clash with the public one), costs no storage, and compares
/// and hashes as nothing.
package struct Memberwise: Hashable, Sendable {
    package init() {}
}
