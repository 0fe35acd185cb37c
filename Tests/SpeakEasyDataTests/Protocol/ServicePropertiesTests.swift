import SpeakEasyData
import Testing

@Suite("Service properties: Azure's StorageServiceProperties document")
struct ServicePropertiesTests {
    static func read(_ text: String) throws(StorageError) -> ServiceProperties {
        try ServiceProperties(reading: Array(text.utf8))
    }

    @Test("what is written reads back; a Set replaces what it names and keeps the rest")
    func roundTripAndMerge() throws {
        var changed = ServiceProperties.defaults
        changed.logging?.write = false
        changed.logging?.retentionPolicy = .init(enabled: true, days: 7)
        changed.hourMetrics = .init(
            version: "1.0",
            enabled: true,
            includeAPIs: true,
            retentionPolicy: .init(enabled: false, days: nil)
        )
        changed.cors = [
            .init(
                allowedOrigins: "*",
                allowedMethods: "GET,PUT",
                maxAgeInSeconds: 60,
                exposedHeaders: "x-ms-*",
                allowedHeaders: ""
            )
        ]
        #expect(try ServiceProperties(reading: changed.write()) == changed)
        let update = try Self.read("<StorageServiceProperties><Cors/></StorageServiceProperties>")
        #expect(update == ServiceProperties(cors: []))
        let merged = changed.merged(with: update)
        #expect(merged.cors == [] && merged.logging == changed.logging && merged.hourMetrics == changed.hourMetrics)
    }

    @Test(
        "what Azure refuses is 400 InvalidXmlDocument",
        arguments: [
            "not xml", "<Other/>", "<StorageServiceProperties><Unknown/></StorageServiceProperties>",
            "<StorageServiceProperties><Logging><Version>1.0</Version></Logging></StorageServiceProperties>",
            "<StorageServiceProperties><HourMetrics><Version>1.0</Version><Enabled>true</Enabled><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></HourMetrics></StorageServiceProperties>",
            "<StorageServiceProperties><MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>true</Enabled><Days>366</Days></RetentionPolicy></MinuteMetrics></StorageServiceProperties>",
            "<StorageServiceProperties><Cors>"
                + String(
                    repeating:
                        "<CorsRule><AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET</AllowedMethods><MaxAgeInSeconds>1</MaxAgeInSeconds></CorsRule>",
                    count: 6
                ) + "</Cors></StorageServiceProperties>",
            "<StorageServiceProperties><Cors><CorsRule><AllowedOrigins>*</AllowedOrigins><AllowedMethods>TRACE</AllowedMethods><MaxAgeInSeconds>1</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>",
        ]
    )
    func refused(text: String) {
        #expect(throws: StorageError.self) { try Self.read(text) }
        do { _ = try Self.read(text) } catch { #expect(error.azureCode == "InvalidXmlDocument") }
    }
}
