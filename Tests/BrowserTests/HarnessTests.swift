import Foundation
import TestSupport
import Testing

/// The judges judged: the probe must see what a page really renders and requests, and the Nu checker
/// must refuse broken HTML, or a page test that passes proves nothing.
@Suite(.enabled(if: HeadlessChromium.enabled, HeadlessChromium.howToEnable))
struct HarnessTests {
    @Test func theProbeReadsTheRenderedDOMFollowsLinksAndSeesRequestsThatLeave() throws {
        try withTemporaryDirectorySync { directory in
            let first = """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>one</title></head>
                <body><div id="bar" style="width:240px;height:10px;background:#36c"></div>
                <a id="next" href="two.html">next</a>
                <script>document.body.dataset.made = String(6 * 7)</script>
                <img src="https://offsite.invalid/x.png" alt=""></body></html>
                """
            let second = """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>two</title></head>
                <body><p>second &lt;page&gt;</p></body></html>
                """
            try Data(first.utf8).write(to: URL(fileURLWithPath: directory + "/one.html"))
            try Data(second.utf8).write(to: URL(fileURLWithPath: directory + "/two.html"))
            let shot = directory + "/one.png"
            let run = try HeadlessChromium.run([
                .navigate("file://\(directory)/one.html"),
                .evaluate("document.getElementById('bar').getBoundingClientRect().width"),
                .evaluate("document.body.dataset.made"),
                .screenshot(shot),
                .click("#next"),
                .waitFor("document.title === 'two'"),
                .evaluate("document.querySelector('p').textContent"),
            ])
            #expect(run.results == [.number(240), .string("42"), .string("second <page>")])
            #expect(run.offsite == ["https://offsite.invalid/x.png"])
            #expect(run.requests.contains("file://\(directory)/two.html"))
            let png = try Data(contentsOf: URL(fileURLWithPath: shot))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
    }

    @Test func anExceptionInAnExpressionFailsTheRun() throws {
        #expect(throws: HeadlessChromium.Failure.self) {
            try HeadlessChromium.run([.navigate("about:blank"), .evaluate("nothing.here")])
        }
    }

    @Test func theNuCheckerAcceptsValidHTMLAndRefusesAnUnclosedElement() throws {
        try withTemporaryDirectorySync { directory in
            let valid = directory + "/valid.html"
            let invalid = directory + "/invalid.html"
            let head = #"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head>"#
            try Data((head + "<body><p>fine</p></body></html>").utf8).write(to: URL(fileURLWithPath: valid))
            try Data((head + "<body><div><span></div></body></html>").utf8).write(to: URL(fileURLWithPath: invalid))
            try NuHTMLChecker.check(file: valid)
            let failure = #expect(throws: HeadlessChromium.Failure.self) { try NuHTMLChecker.check(file: invalid) }
            #expect(failure?.description.contains("span") == true)
        }
    }
}
