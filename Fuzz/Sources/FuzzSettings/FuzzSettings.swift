import SiftKit

/// Any bytes as a whole `Content/site.yml` and a whole `collection.yml`, read as the loader reads
/// them: decoded, parsed by libyaml into a mapping, turned into settings, unknown keys warned
/// about. Each must give settings or a SiftError; the base path always starts and ends with "/".
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let text = try? SourceText.decode(bytes, path: "Content/site.yml"),
          let (fields, positions, keys) = try? YAML.parseMapping(text, path: "Content/site.yml") else { return 0 }
    if let site = try? SiteSettings(fields: fields, path: "Content/site.yml", positions: positions) {
        let base = site.basePath
        // Bytes: "/" with a combining mark after it is one character, and no "/" to hasPrefix.
        precondition(base.utf8.first == UInt8(ascii: "/") && base.utf8.last == UInt8(ascii: "/"), "base path \(base)")
        _ = site.absoluteBase
        _ = site.isRightToLeft
    }
    _ = SettingsKeys.site.warnings(keys)
    _ = try? CollectionSettings(fields: fields, path: "Content/c/collection.yml", positions: positions)
    _ = SettingsKeys.collection.warnings(keys)
    return 0
}

// SwiftPM links executables with `main=FuzzSettings_main`: hand that entry point to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ body: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzSettings_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return runDriver(&argc, &argv, fuzz)
}
