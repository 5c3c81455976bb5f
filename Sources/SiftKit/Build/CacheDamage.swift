/// A record of `.sift-cache/` found damaged while a build was using it (the cache is read a
/// record at a time, as the build asks): the build starts again without the cache instead of
/// failing, and every later build with it (`SiteBuilder.build`). Never reaches the user.
struct CacheDamage: Error {
    /// What could not be read, for the message of a build that fails all the same.
    var what: String
}
