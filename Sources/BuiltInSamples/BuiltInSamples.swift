/// The repository's `samples/` (`catalog.json` and the photos it names), built into the tools, so
/// that `seed` runs with no files beside it: a release binary copied to another machine included.
///
/// `Sources/BuiltInSamples/samples` is a symbolic link to the repository's `samples/`; SwiftPM embeds
/// its files as byte arrays (`.embedInCode` in `Package.swift`, which names each `PackageResources`
/// member after the file's name). A photo added to `samples/photos` needs its line below; a test
/// checks that these are exactly the files of `samples/`, byte for byte.
package enum BuiltInSamples {
    /// Every file, by its path inside `samples/`.
    package static let files: [String: [UInt8]] = [
        "catalog.json": PackageResources.catalog_json,
        "photos/BJohnson.jpg": PackageResources.BJohnson_jpg,
        "photos/BTubalinal.jpg": PackageResources.BTubalinal_jpg,
        "photos/CJones.jpg": PackageResources.CJones_jpg,
        "photos/DOrlova.jpg": PackageResources.DOrlova_jpg,
        "photos/EGardner.jpg": PackageResources.EGardner_jpg,
        "photos/MMorse.jpg": PackageResources.MMorse_jpg,
        "photos/MOmar.jpg": PackageResources.MOmar_jpg,
        "photos/TNielsen.jpg": PackageResources.TNielsen_jpg,
    ]
}
