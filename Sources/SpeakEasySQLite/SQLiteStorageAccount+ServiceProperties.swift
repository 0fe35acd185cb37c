import SpeakEasyStorage

extension SQLiteStorageAccount: KeepsServiceProperties {
    package func serviceProperties(_ service: String) async throws -> [UInt8]? {
        try await read { connection in
            let statement = try connection.prepare("SELECT document FROM service_properties WHERE service = ?")
            statement.bind(1, service)
            return try statement.step() ? statement.bytes(0) : nil
        }
    }

    package func setServiceProperties(_ service: String, _ document: [UInt8]) async throws {
        try await write { connection in
            let statement = try connection.prepare(
                "INSERT OR REPLACE INTO service_properties (service, document) VALUES (?, ?)"
            )
            statement.bind(1, service)
            statement.bindBlob(2, document)
            try connection.transaction { try statement.run() }
        }
    }
}
