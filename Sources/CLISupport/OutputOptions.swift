import ArgumentParser

/// `--quiet`: no progress and no summary; errors still go to stderr.
package struct OutputOptions: ParsableArguments {
    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    package var quiet = false

    package init() {}
}
