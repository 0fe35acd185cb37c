import SpeakEasyFormats
package import SpeakEasyStorage

/// A service's properties, Azure's `StorageServiceProperties` document: logging, hour and minute
/// metrics, and CORS rules (Get and Set Table Service Properties, `?restype=service&comp=properties`).
///
/// A Set names only what it changes: an element left out keeps its value (the REST reference; Azurite's
/// ServiceHandler.setProperties does the same). The server keeps the merged document and answers it to
/// a Get; a service never set answers Azurite's defaults.
package struct ServiceProperties: Sendable, Equatable {
    package struct RetentionPolicy: Sendable, Equatable {
        package var enabled = false
        /// 1 to 365, and only when enabled.
        package var days: Int?

        package init(enabled: Bool = false, days: Int? = nil) {
            self.enabled = enabled
            self.days = days
        }
    }

    package struct Logging: Sendable, Equatable {
        package var version = "1.0"
        package var delete = true
        package var read = true
        package var write = true
        package var retentionPolicy = RetentionPolicy()

        package init(
            version: String = "1.0",
            delete: Bool = true,
            read: Bool = true,
            write: Bool = true,
            retentionPolicy: RetentionPolicy = RetentionPolicy()
        ) {
            self.version = version
            self.delete = delete
            self.read = read
            self.write = write
            self.retentionPolicy = retentionPolicy
        }
    }

    package struct Metrics: Sendable, Equatable {
        package var version = "1.0"
        package var enabled = false
        /// Required when enabled, absent otherwise.
        package var includeAPIs: Bool?
        package var retentionPolicy = RetentionPolicy()

        package init(
            version: String = "1.0",
            enabled: Bool = false,
            includeAPIs: Bool? = nil,
            retentionPolicy: RetentionPolicy = RetentionPolicy()
        ) {
            self.version = version
            self.enabled = enabled
            self.includeAPIs = includeAPIs
            self.retentionPolicy = retentionPolicy
        }
    }

    package struct CorsRule: Sendable, Equatable {
        package var allowedOrigins: String
        package var allowedMethods: String
        package var maxAgeInSeconds: Int
        package var exposedHeaders: String
        package var allowedHeaders: String

        package init(
            allowedOrigins: String,
            allowedMethods: String,
            maxAgeInSeconds: Int,
            exposedHeaders: String,
            allowedHeaders: String
        ) {
            self.allowedOrigins = allowedOrigins
            self.allowedMethods = allowedMethods
            self.maxAgeInSeconds = maxAgeInSeconds
            self.exposedHeaders = exposedHeaders
            self.allowedHeaders = allowedHeaders
        }
    }

    package var logging: Logging?
    package var hourMetrics: Metrics?
    package var minuteMetrics: Metrics?
    package var cors: [CorsRule]?

    package init(
        logging: Logging? = nil,
        hourMetrics: Metrics? = nil,
        minuteMetrics: Metrics? = nil,
        cors: [CorsRule]? = nil
    ) {
        self.logging = logging
        self.hourMetrics = hourMetrics
        self.minuteMetrics = minuteMetrics
        self.cors = cors
    }

    /// What a service never set answers (Azurite's `defaultServiceProperties`).
    package static let defaults = ServiceProperties(
        logging: Logging(),
        hourMetrics: Metrics(),
        minuteMetrics: Metrics(),
        cors: []
    )

    /// Azure's limit on CORS rules a service keeps.
    static let maximumCorsRules = 5
    static let corsMethods: Set<Substring> = ["DELETE", "GET", "HEAD", "MERGE", "POST", "OPTIONS", "PUT", "PATCH"]

    /// `self` with what `update` names replaced.
    package func merged(with update: ServiceProperties) -> ServiceProperties {
        ServiceProperties(
            logging: update.logging ?? logging,
            hourMetrics: update.hourMetrics ?? hourMetrics,
            minuteMetrics: update.minuteMetrics ?? minuteMetrics,
            cors: update.cors ?? cors
        )
    }

    // MARK: Reading

    /// Reads a Set's body; what is not a valid document is 400 InvalidXmlDocument, as Azure answers.
    package init(reading body: [UInt8]) throws(StorageError) {
        let root: XMLTree
        do {
            root = try XMLTree(parsing: body)
        } catch {
            throw Self.invalid("the XML specified is not syntactically valid (\(error))")
        }
        guard root.name == "StorageServiceProperties" else {
            throw Self.invalid("the root element is <\(root.name)>, not <StorageServiceProperties>")
        }
        for element in root.children {
            switch element.name {
            case "Logging": logging = try Self.logging(element)
            case "HourMetrics": hourMetrics = try Self.metrics(element)
            case "MinuteMetrics": minuteMetrics = try Self.metrics(element)
            case "Cors": cors = try Self.cors(element)
            // Blob's own elements, which the Table service ignores as Azure does for elements it does not have.
            case "DefaultServiceVersion", "DeleteRetentionPolicy", "StaticWebsite": continue
            default: throw Self.invalid("<\(element.name)> is not a service property")
            }
        }
    }

    private static func logging(_ element: XMLTree) throws(StorageError) -> Logging {
        Logging(
            version: try text(element, "Version"),
            delete: try flag(element, "Delete"),
            read: try flag(element, "Read"),
            write: try flag(element, "Write"),
            retentionPolicy: try retention(element)
        )
    }

    private static func metrics(_ element: XMLTree) throws(StorageError) -> Metrics {
        let enabled = try flag(element, "Enabled")
        let includeAPIs = try element.child("IncludeAPIs").map { _ throws(StorageError) in
            try flag(element, "IncludeAPIs")
        }
        if enabled, includeAPIs == nil { throw invalid("<\(element.name)> is enabled but has no <IncludeAPIs>") }
        return Metrics(
            version: try text(element, "Version"),
            enabled: enabled,
            includeAPIs: enabled ? includeAPIs : nil,
            retentionPolicy: try retention(element)
        )
    }

    private static func retention(_ parent: XMLTree) throws(StorageError) -> RetentionPolicy {
        guard let element = parent.child("RetentionPolicy") else {
            throw invalid("<\(parent.name)> has no <RetentionPolicy>")
        }
        let enabled = try flag(element, "Enabled")
        guard enabled else { return RetentionPolicy(enabled: false, days: nil) }
        guard let days = Int(try text(element, "Days")), (1...365).contains(days) else {
            throw invalid("<\(parent.name)><RetentionPolicy><Days> must be 1 to 365")
        }
        return RetentionPolicy(enabled: true, days: days)
    }

    private static func cors(_ element: XMLTree) throws(StorageError) -> [CorsRule] {
        let rules = element.children
        guard rules.count <= maximumCorsRules else {
            throw invalid("<Cors> holds \(rules.count) rules; at most \(maximumCorsRules)")
        }
        return try rules.map { (rule: XMLTree) throws(StorageError) -> CorsRule in
            guard rule.name == "CorsRule" else { throw invalid("<Cors> holds <\(rule.name)>, not <CorsRule>") }
            let methods = try text(rule, "AllowedMethods")
            for method in methods.split(separator: ",") where !corsMethods.contains(method) {
                throw invalid("<AllowedMethods> names '\(method)', which is no method CORS allows")
            }
            guard let maxAge = Int(try text(rule, "MaxAgeInSeconds")), maxAge >= 0 else {
                throw invalid("<MaxAgeInSeconds> must be a whole number")
            }
            return CorsRule(
                allowedOrigins: try text(rule, "AllowedOrigins"),
                allowedMethods: methods,
                maxAgeInSeconds: maxAge,
                exposedHeaders: rule.child("ExposedHeaders")?.text ?? "",
                allowedHeaders: rule.child("AllowedHeaders")?.text ?? ""
            )
        }
    }

    private static func text(_ parent: XMLTree, _ name: String) throws(StorageError) -> String {
        guard let child = parent.child(name) else { throw invalid("<\(parent.name)> has no <\(name)>") }
        return child.text
    }

    private static func flag(_ parent: XMLTree, _ name: String) throws(StorageError) -> Bool {
        switch try text(parent, name) {
        case "true": return true
        case "false": return false
        case let other: throw invalid("<\(parent.name)><\(name)> is '\(other.prefix(32))', not true or false")
        }
    }

    private static func invalid(_ why: String) -> StorageError {
        StorageError(
            .invalidInput,
            account: "",
            "The XML specified is not syntactically valid or is not a service properties document: \(why).",
            code: "InvalidXmlDocument"
        )
    }

    // MARK: Writing

    /// The document a Get answers.
    package func write() -> [UInt8] {
        var xml = BlobXML()
        xml.open("StorageServiceProperties")
        if let logging {
            xml.open("Logging")
            xml.element("Version", logging.version)
            xml.element("Delete", String(logging.delete))
            xml.element("Read", String(logging.read))
            xml.element("Write", String(logging.write))
            Self.write(logging.retentionPolicy, to: &xml)
            xml.close("Logging")
        }
        for (name, metrics) in [("HourMetrics", hourMetrics), ("MinuteMetrics", minuteMetrics)] {
            guard let metrics else { continue }
            xml.open(name)
            xml.element("Version", metrics.version)
            xml.element("Enabled", String(metrics.enabled))
            if let includeAPIs = metrics.includeAPIs { xml.element("IncludeAPIs", String(includeAPIs)) }
            Self.write(metrics.retentionPolicy, to: &xml)
            xml.close(name)
        }
        if let cors {
            xml.open("Cors")
            for rule in cors {
                xml.open("CorsRule")
                xml.element("AllowedOrigins", rule.allowedOrigins)
                xml.element("AllowedMethods", rule.allowedMethods)
                xml.element("MaxAgeInSeconds", String(rule.maxAgeInSeconds))
                xml.element("ExposedHeaders", rule.exposedHeaders)
                xml.element("AllowedHeaders", rule.allowedHeaders)
                xml.close("CorsRule")
            }
            xml.close("Cors")
        }
        xml.close("StorageServiceProperties")
        return xml.bytes
    }

    private static func write(_ policy: RetentionPolicy, to xml: inout BlobXML) {
        xml.open("RetentionPolicy")
        xml.element("Enabled", String(policy.enabled))
        if let days = policy.days { xml.element("Days", String(days)) }
        xml.close("RetentionPolicy")
    }
}
