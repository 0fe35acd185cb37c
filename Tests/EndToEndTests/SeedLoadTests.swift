import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import Testing

/// Data files in the shape the issue met them: a speaker, and events the app cannot all read.
enum LoadData {
    static let speakerKey = "bdd73226-2feb-4e95-a8ef-e333b266f103"
    static let header =
        "PartitionKey,RowKey,Name,Title,Bio,ImageUrl,EventDate,EventName,EventLocation,EventDescription,SpeakerKey,SpeakerName"

    /// One speaker whose photo is `http://127.0.0.1:10000/<account>/speakers/<photo>`.
    static func speaker(
        _ key: String = speakerKey,
        name: String = "Bart Tubalinal",
        photo: String = "BTubalinal.jpg",
        account: String = "speakeasy"
    ) -> String {
        "speakers,\(key),\(name),Developer,Builds apps.,http://127.0.0.1:10000/\(account)/speakers/\(photo),,,,,,"
    }

    static func event(
        _ number: Int,
        date: String,
        speakerKey: String = speakerKey,
        speakerName: String = "Bart Tubalinal"
    ) -> String {
        "Events,e0000000-0000-4000-8000-00000000000\(number),,,,,\(date),Mobile Mondays,\"Chicago, IL\",Talks,\(speakerKey),\(speakerName)"
    }

    /// The CSV: a good event, then a date without fractional digits, one on a whole second,
    /// an unknown speaker key and a misspelt SpeakerName.
    static let brokenCSV =
        ([
            header, speaker(), event(1, date: "2026-07-01T04:34:00.0000001Z"), event(2, date: "2026-07-01T04:34:00Z"),
            event(3, date: "2026-07-02T18:30:00.0000000Z"),
            event(4, date: "2026-07-03T18:30:00.0000001Z", speakerKey: "0f000000-0000-4000-8000-000000000000"),
            event(5, date: "2026-07-04T18:30:00.0000001Z", speakerName: "Bart Tubalnal"),
        ]).joined(separator: "\r\n") + "\r\n"
}

@Suite("seed --from-file: validate's rules on what is loaded")
struct SeedLoadFindingsTests {
    @Test("findings are warnings with a summary and a pointer to validate; the load goes on")
    func warnings() async throws {
        let scratch = try Scratch()
        try LoadData.brokenCSV.write(toFile: scratch.file("broken.csv"), atomically: true, encoding: .utf8)
        let result = try await SeedTool.run(
            ["--from-file", "broken.csv", "--store", "store.sqlite"],
            in: scratch.path,
            samples: nil
        )
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Loaded into store.sqlite"), "\(result)")
        let warnings = result.stderr.split(separator: "\n").filter {
            $0.hasPrefix("seed: warning: broken.csv:") && $0.hasSuffix("]")
        }
        #expect(
            warnings.map { $0.split(separator: " ")[2] } == [
                "broken.csv:4", "broken.csv:5", "broken.csv:6", "broken.csv:7",
            ],
            "in file order\n\(result)"
        )
        #expect(
            result.stderr.contains(
                "broken.csv:4 (Events/e0000000-0000-4000-8000-000000000002): EventDate '2026-07-01T04:34:00Z'"
            ),
            "\(result)"
        )
        #expect(
            result.stderr.contains(
                "broken.csv:5 (Events/e0000000-0000-4000-8000-000000000003): EventDate '2026-07-02T18:30:00.0000000Z'"
            ),
            "\(result)"
        )
        for rule in ["[dates.format]", "[references.orphan]", "[references.name-mismatch]"] {
            #expect(result.stderr.contains(rule), "\(rule)\n\(result)")
        }
        #expect(
            result.stderr.contains(
                "seed: warning: broken.csv: 4 errors in 6 entities by validate's rules (dates.format 2, references.orphan 1, references.name-mismatch 1): "
                    + "the app may not read this data; loading it anyway (`validate broken.csv` lists every finding; --strict refuses such a load)"
            ),
            "\(result)"
        )
        #expect(
            try await StoreContents.read(scratch.file("store.sqlite")).counts == [
                DataContract.speakersPartition: 1, DataContract.eventsPartition: 5,
            ]
        )

        // The pointer's command finds the same.
        let validated = try await BuiltTool.validate.run(["broken.csv"], in: scratch.path)
        #expect(
            validated.status == 1 && validated.stdout.contains("validate: 4 errors in 6 entities (broken.csv)"),
            "\(validated)"
        )
    }

    @Test("--strict refuses the load (65) with the findings, and creates no store")
    func strict() async throws {
        let scratch = try Scratch()
        try LoadData.brokenCSV.write(toFile: scratch.file("broken.csv"), atomically: true, encoding: .utf8)
        let result = try await SeedTool.run(
            ["--from-file", "broken.csv", "--store", "store.sqlite", "--strict"],
            in: scratch.path,
            samples: nil
        )
        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr.split(separator: "\n").filter {
                $0.hasPrefix("seed: error: broken.csv:") && $0.hasSuffix("]")
            }.count == 4,
            "\(result)"
        )
        #expect(
            result.stderr.contains("seed: error: broken.csv: 4 errors in 6 entities by validate's rules"),
            "\(result)"
        )
        #expect(result.stderr.contains("--strict loads none of it"), "\(result)")
        #expect(!fileExists(scratch.file("store.sqlite")))
        #expect(result.stdout.isEmpty, "\(result)")

        // Data the rules pass loads under --strict.
        let good =
            [LoadData.header, LoadData.speaker(), LoadData.event(1, date: "2026-07-01T04:34:00.0000001Z")].joined(
                separator: "\r\n"
            ) + "\r\n"
        try good.write(toFile: scratch.file("good.csv"), atomically: true, encoding: .utf8)
        let loaded = try await SeedTool.run(
            ["--from-file", "good.csv", "--store", "store.sqlite", "--strict"],
            in: scratch.path,
            samples: nil
        )
        #expect(loaded.status == 0 && loaded.stderr.isEmpty, "\(loaded)")
    }

    @Test("a merge judges references with the store's speakers; a fresh load does not count them")
    func mergeSeesTheStore() async throws {
        let scratch = try Scratch()
        let speakers = [LoadData.header, LoadData.speaker()].joined(separator: "\r\n") + "\r\n"
        try speakers.write(toFile: scratch.file("speakers.csv"), atomically: true, encoding: .utf8)
        let first = try await SeedTool.run(
            ["--from-file", "speakers.csv", "--store", "store.sqlite"],
            in: scratch.path,
            samples: nil
        )
        try #require(first.status == 0, "\(first)")
        let event = [LoadData.header, LoadData.event(1, date: "2026-07-01T04:34:00.0000001Z")].joined(separator: "\r\n")
        try (event + "\r\n").write(toFile: scratch.file("event.csv"), atomically: true, encoding: .utf8)
        let merged = try await SeedTool.run(
            ["--from-file", "event.csv", "--store", "store.sqlite", "--mode", "merge", "--strict"],
            in: scratch.path,
            samples: nil
        )
        #expect(merged.status == 0 && merged.stderr.isEmpty, "\(merged)")
        let validated = try await BuiltTool.validate.run(
            ["--store", "store.sqlite", "--skip", "photos"],
            in: scratch.path
        )
        #expect(validated.status == 0, "\(validated)")
        // A name that is not the stored speaker's is told against the store's speaker.
        let misnamed = [
            LoadData.header, LoadData.event(2, date: "2026-07-01T04:34:00.0000001Z", speakerName: "Bart T"),
        ]
        try (misnamed.joined(separator: "\r\n") + "\r\n").write(
            toFile: scratch.file("misnamed.csv"),
            atomically: true,
            encoding: .utf8
        )
        let warned = try await SeedTool.run(
            ["--from-file", "misnamed.csv", "--store", "store.sqlite", "--mode", "merge"],
            in: scratch.path,
            samples: nil
        )
        #expect(warned.status == 0, "\(warned)")
        #expect(warned.stderr.contains("[references.name-mismatch]"), "\(warned)")
        #expect(!warned.stderr.contains("--skip"), "seed has no --skip: \(warned)")
        // Into another, empty store the same event names nobody, and no option seed lacks is suggested.
        let alone = try await SeedTool.run(
            ["--from-file", "event.csv", "--store", "other.sqlite", "--mode", "merge"],
            in: scratch.path,
            samples: nil
        )
        #expect(alone.status == 0, "\(alone)")
        #expect(alone.stderr.contains("names no speaker; no speakers were read at all"), "\(alone)")
        #expect(!alone.stderr.contains("--skip"), "\(alone)")
    }

    @Test("an SDK dump's EventDate that is a string is a finding, not a quiet string")
    func stringDate() async throws {
        let scratch = try Scratch()
        let dump = """
            {"PartitionKey":"speakers","RowKey":"\(LoadData.speakerKey)","Name":"Bart Tubalinal","Title":"Developer","Bio":"Builds apps.","ImageUrl":"http://127.0.0.1:10000/speakeasy/speakers/BTubalinal.jpg"}
            {"PartitionKey":"Events","RowKey":"e0000000-0000-4000-8000-000000000001","EventDate":"2026-03-02 18:30:00+00:00","EventName":"Mobile Mondays","EventLocation":"Chicago, IL","EventDescription":"Talks","SpeakerKey":"\(LoadData.speakerKey)","SpeakerName":"Bart Tubalinal"}

            """
        try dump.write(toFile: scratch.file("sdk dump.ndjson"), atomically: true, encoding: .utf8)
        let result = try await SeedTool.run(
            ["--from-file", "sdk dump.ndjson", "--store", "store.sqlite"],
            in: scratch.path,
            samples: nil
        )
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stderr.contains("EventDate '2026-03-02 18:30:00+00:00' is Edm.String, not Edm.DateTime"),
            "\(result)"
        )
        #expect(result.stderr.contains("[dates.missing]"), "\(result)")
        #expect(result.stderr.contains("(`validate 'sdk dump.ndjson'` lists every finding"), "\(result)")
    }
}

@Suite("CSV in another delimiter: seed --delimiter, and a hint in every tool")
struct DelimiterHintTests {
    /// What Excel writes in many European locales: a BOM, CRLF and ';'.
    static let excelEU =
        "\u{FEFF}" + LoadData.header.replacing(",", with: ";") + "\r\n"
        + "speakers;\(LoadData.speakerKey);Bart Tubalinal;Developer;Builds apps.;"
        + "http://127.0.0.1:10000/speakeasy/speakers/BTubalinal.jpg;;;;;;\r\n"

    @Test("seed, export and validate say the header looks ';'-separated; seed --delimiter ';' loads it")
    func excelEU() async throws {
        let scratch = try Scratch()
        try Self.excelEU.write(toFile: scratch.file("excel-eu.csv"), atomically: true, encoding: .utf8)
        let hint = "excel-eu.csv:1:1: the header looks ';'-separated: use --delimiter ';'"
        let seeded = try await SeedTool.run(
            ["--from-file", "excel-eu.csv", "--store", "store.sqlite"],
            in: scratch.path,
            samples: nil
        )
        #expect(seeded.status == 65 && seeded.stderr.contains(hint), "\(seeded)")
        let exported = try await BuiltTool.export.run(["excel-eu.csv", "--to", "out.json"], in: scratch.path)
        #expect(exported.status == 65 && exported.stderr.contains(hint), "\(exported)")
        let validated = try await BuiltTool.validate.run(["excel-eu.csv"], in: scratch.path)
        #expect(validated.status == 65 && validated.stderr.contains(hint), "\(validated)")

        let loaded = try await SeedTool.run(
            ["--from-file", "excel-eu.csv", "--delimiter", ";", "--store", "store.sqlite"],
            in: scratch.path,
            samples: nil
        )
        #expect(loaded.status == 0 && loaded.stderr.isEmpty, "\(loaded)")
        #expect(
            try await StoreContents.read(scratch.file("store.sqlite")).counts == [DataContract.speakersPartition: 1]
        )

        let alone = try await SeedTool.run(["--delimiter", ";"], in: scratch.path, samples: nil)
        #expect(alone.status == 64, "\(alone)")
    }
}

@Suite("seed --photos")
struct SeedPhotosTests {
    static let otherKey = "c0000000-0000-4000-8000-000000000002"
    static let thirdKey = "c0000000-0000-4000-8000-000000000003"

    /// Three speakers of `account`: two with a file in `photos/` (one a PNG), one without; and a
    /// file that is nobody's photo.
    static func prepare(_ scratch: borrowing Scratch, account: String) throws {
        let lines = [
            LoadData.header, LoadData.speaker(account: account),
            LoadData.speaker(otherKey, name: "Ada Lovelace", photo: "ALovelace.png", account: account),
            LoadData.speaker(thirdKey, name: "Grace Hopper", photo: "GHopper.jpg", account: account),
        ]
        try (lines.joined(separator: "\r\n") + "\r\n").write(
            toFile: scratch.file("speakers.csv"),
            atomically: true,
            encoding: .utf8
        )
        try FileManager.default.createDirectory(atPath: scratch.file("photos"), withIntermediateDirectories: false)
        for (from, to) in [("BTubalinal.jpg", "BTubalinal.jpg"), ("MMorse.jpg", "extra.jpg")] {
            try FileManager.default.copyItem(
                atPath: SeedTool.samples + "/photos/" + from,
                toPath: scratch.file("photos/" + to)
            )
        }
        try Data(Self.png).write(to: URL(fileURLWithPath: scratch.file("photos/ALovelace.png")))
    }

    /// The smallest PNG the seed's own encoder writes: a 1×1 image.
    static let png = PNGEncoder.encode(
        width: 1,
        height: 1,
        pixels: [true],
        background: (255, 255, 255),
        foreground: (0, 0, 0)
    )

    /// What a run left in the store's container, and what validate says of the photos.
    static func check(
        _ store: String,
        result: ProcessResult,
        scratch: borrowing Scratch,
        validateStore: String
    ) async throws {
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains("photos        2 from photos in container 'speakers' (public read), 2 uploaded"),
            "\(result)"
        )
        #expect(
            result.stdout.contains(
                "no photo      1 speaker\n    'Grace Hopper' (\(thirdKey)): no file 'GHopper.jpg' in photos"
            ),
            "\(result)"
        )
        #expect(result.stdout.contains("no speaker    1 file\n    extra.jpg"), "\(result)")
        let contents = try await StoreContents.read(store)
        #expect(contents.access == .container)
        #expect(contents.blobs.map(\.name) == ["ALovelace.png", "BTubalinal.jpg"])
        #expect(contents.blobs.map(\.contentType) == ["image/png", "image/jpeg"])
        let directory = scratch.file("photos/")
        let files = try ["ALovelace.png", "BTubalinal.jpg"].map {
            Array(try Data(contentsOf: URL(fileURLWithPath: directory + $0)))
        }
        #expect(contents.blobs.map(\.contentMD5) == files.map(BlobProperties.contentMD5(of:)))

        let validated = try await BuiltTool.validate.run(
            ["--store", validateStore, "--rule", "photos", "--report", "json"],
            in: scratch.path
        )
        let findings =
            try #require(try JSONSerialization.jsonObject(with: Data(validated.stdout.utf8)) as? [String: Any])[
                "findings"
            ] as? [[String: Any]]
        #expect(findings?.map { $0["rule"] as? String } == ["photos.missing"], "\(validated)")
    }

    @Test("with --from-file, into the local account")
    func local() async throws {
        let scratch = try Scratch()
        try Self.prepare(scratch, account: StorageLocation.localAccountName)
        let result = try await SeedTool.run(
            ["--from-file", "speakers.csv", "--photos", "photos", "--store", "store.sqlite"],
            in: scratch.path,
            samples: nil
        )
        try await Self.check(
            scratch.file("store.sqlite"),
            result: result,
            scratch: scratch,
            validateStore: "store.sqlite"
        )
    }

    @Test("over serve, a file's ImageUrls that name another account are rewritten to the uploads")
    func rewritesImageURLs() async throws {
        try await withRunningServer { server in
            let scratch = try Scratch()
            try Self.prepare(scratch, account: StorageLocation.localAccountName)
            let connection = server.connectionString()
            let result = try await SeedTool.run(
                ["--from-file", "speakers.csv", "--photos", "photos", "--store", connection],
                in: scratch.path,
                samples: nil
            )
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("ImageUrl      2 rewritten to name this account's photo"), "\(result)")
            let endpoint = DevelopmentAccount.endpoint(.blob, port: server.port(.blob))
            let served = try await StoreContents.read(server.store)
            let urls = Dictionary(uniqueKeysWithValues: served.speakers.map { ($0.rowKey, $0["ImageUrl"]) })
            #expect(urls[LoadData.speakerKey] == .string(endpoint + "/speakers/BTubalinal.jpg"), "\(urls)")
            #expect(urls[Self.otherKey] == .string(endpoint + "/speakers/ALovelace.png"), "\(urls)")
            // Without a photo, the file's URL is kept, and validate says whose account it names.
            #expect(urls[Self.thirdKey] == .string("http://127.0.0.1:10000/speakeasy/speakers/GHopper.jpg"))
            let validated = try await BuiltTool.validate.run(
                ["--store", connection, "--rule", "photos"],
                in: scratch.path
            )
            #expect(validated.status == 1, "\(validated)")
            #expect(
                validated.stdout.contains("names account 'speakeasy', not this account, 'devstoreaccount1'"),
                "\(validated)"
            )
            #expect(!validated.stdout.contains("'speakers', not"), "\(validated)")
            #expect(validated.stdout.contains("photos.missing (1 finding)"), "\(validated)")
        }
    }

    @Test("validate takes a photo URL under another name the served account answers to")
    func aliasOfTheServedAccount() async throws {
        try await withRunningServer(
            configure: { $0.accountAliases = [StorageLocation.localAccountName] },
            { server in
                let scratch = try Scratch()
                let endpoint = DevelopmentAccount.endpoint(.blob, port: server.port(.blob))
                // The speaker's photo URL names the local account's name, on the served endpoint.
                let alias = endpoint.replacing(DevelopmentAccount.name, with: StorageLocation.localAccountName)
                let csv = [
                    LoadData.header,
                    "speakers,\(LoadData.speakerKey),Bart Tubalinal,Developer,Builds apps.,\(alias)/speakers/BTubalinal.jpg,,,,,,",
                    "speakers,\(Self.otherKey),Ada Lovelace,Analyst,Writes notes.,\(alias)/speakers/ALovelace.png,,,,,,",
                ]
                try (csv.joined(separator: "\r\n") + "\r\n").write(
                    toFile: scratch.file("speakers.csv"),
                    atomically: true,
                    encoding: .utf8
                )
                try FileManager.default.createDirectory(
                    atPath: scratch.file("photos"),
                    withIntermediateDirectories: false
                )
                try FileManager.default.copyItem(
                    atPath: SeedTool.samples + "/photos/BTubalinal.jpg",
                    toPath: scratch.file("photos/BTubalinal.jpg")
                )
                let connection = server.connectionString()
                // --photos alone keeps the data's URL: the store holds the alias's URL.
                let loaded = try await SeedTool.run(
                    ["--from-file", "speakers.csv", "--store", connection],
                    in: scratch.path,
                    samples: nil
                )
                #expect(loaded.status == 0, "\(loaded)")
                let uploaded = try await SeedTool.run(
                    ["--photos", "photos", "--store", connection],
                    in: scratch.path,
                    samples: nil
                )
                #expect(uploaded.status == 0, "\(uploaded)")
                let validated = try await BuiltTool.validate.run(
                    ["--store", connection, "--rule", "photos"],
                    in: scratch.path
                )
                // Bart's photo opens under the alias; Ada's has none, and that is what is said of it.
                #expect(validated.status == 1, "\(validated)")
                #expect(validated.stdout.contains("photos.missing (1 finding)"), "\(validated)")
                #expect(
                    validated.stdout.contains("ImageUrl names blob 'ALovelace.png', which is not in container"),
                    "\(validated)"
                )
            }
        )
    }

    @Test("alone, with --photo-name, over Azure's protocol (serve), as on the local account")
    func alone() async throws {
        try await withRunningServer { server in
            let scratch = try Scratch()
            try Self.prepare(scratch, account: DevelopmentAccount.name)
            // The files named by RowKey, as a photo folder of one's own may be.
            try FileManager.default.moveItem(
                atPath: scratch.file("photos/BTubalinal.jpg"),
                toPath: scratch.file("photos/\(LoadData.speakerKey).jpg")
            )
            try FileManager.default.moveItem(
                atPath: scratch.file("photos/ALovelace.png"),
                toPath: scratch.file("photos/\(Self.otherKey).png")
            )
            let store = server.connectionString()
            let loaded = try await SeedTool.run(
                ["--from-file", "speakers.csv", "--store", store, "--quiet"],
                in: scratch.path,
                samples: nil
            )
            #expect(loaded.status == 0, "\(loaded)")
            // One rule for two extensions cannot be: the PNG is reported, then uploaded by a second run.
            let jpegs = try await SeedTool.run(
                ["--photos", "photos", "--photo-name", "{RowKey}.jpg", "--store", store],
                in: scratch.path,
                samples: nil
            )
            #expect(jpegs.status == 0, "\(jpegs)")
            #expect(jpegs.stdout.contains("photos        1 from photos"), "\(jpegs)")
            #expect(jpegs.stdout.contains("no file '\(Self.otherKey).jpg' in photos"), "\(jpegs)")
            let pngs = try await SeedTool.run(
                ["--photos", "photos", "--photo-name", "{RowKey}.png", "--store", store],
                in: scratch.path,
                samples: nil
            )
            #expect(pngs.status == 0 && pngs.stdout.contains("photos        1 from photos"), "\(pngs)")
            let contents = try await StoreContents.read(server.store)
            #expect(contents.access == .container)
            #expect(
                contents.blobs.map(\.name) == ["ALovelace.png", "BTubalinal.jpg"],
                "uploaded under the ImageUrl's blob name"
            )
            #expect(contents.blobs.map(\.contentType) == ["image/png", "image/jpeg"])
            let validated = try await BuiltTool.validate.run(
                ["--store", store, "--rule", "photos.missing"],
                in: scratch.path
            )
            #expect(validated.stdout.contains("1 error"), "only Grace Hopper has no photo\n\(validated)")
        }
    }

    @Test(
        "a matched file that is no image is refused (65) before anything is written; a rule without a placeholder is a usage error"
    )
    func refusals() async throws {
        let scratch = try Scratch()
        try Self.prepare(scratch, account: StorageLocation.localAccountName)
        try "not a photo".write(toFile: scratch.file("photos/BTubalinal.jpg"), atomically: true, encoding: .utf8)
        let result = try await SeedTool.run(
            ["--from-file", "speakers.csv", "--photos", "photos", "--store", "store.sqlite"],
            in: scratch.path,
            samples: nil
        )
        #expect(
            result.status == 65 && result.stderr.contains("photos/BTubalinal.jpg: is not a JPEG or PNG image"),
            "\(result)"
        )
        #expect(!fileExists(scratch.file("store.sqlite")))
        let rule = try await SeedTool.run(
            ["--photos", "photos", "--photo-name", "photo.jpg"],
            in: scratch.path,
            samples: nil
        )
        #expect(rule.status == 64 && rule.stderr.contains("has no placeholder"), "\(rule)")
        let missing = try await SeedTool.run(
            ["--photos", "photos", "--store", "none.sqlite"],
            in: scratch.path,
            samples: nil
        )
        #expect(missing.status == 66 && !fileExists(scratch.file("none.sqlite")), "\(missing)")
    }

    @Test("--photos naming a file, not a directory, exits 66 as a missing one does, with or without --from-file")
    func photosNotADirectory() async throws {
        let scratch = try Scratch()
        try Self.prepare(scratch, account: StorageLocation.localAccountName)
        let runs: [[String]] = [
            ["--from-file", "speakers.csv", "--photos", "speakers.csv", "--store", "store.sqlite"],
            ["--from-file", "speakers.csv", "--photos", "gone", "--store", "store.sqlite"],
        ]
        for arguments in runs {
            let result = try await SeedTool.run(arguments, in: scratch.path, samples: nil)
            #expect(result.status == 66, "\(result)")
            #expect(result.stderr.hasPrefix("seed: error: \(arguments[3]): "), "\(result)")
            #expect(!fileExists(scratch.file("store.sqlite")))
        }
        let file = try await SeedTool.run(
            ["--from-file", "speakers.csv", "--photos", "speakers.csv", "--store", "store.sqlite"],
            in: scratch.path,
            samples: nil
        )
        #expect(file.stderr == "seed: error: speakers.csv: is not a directory\n", "\(file)")
    }
}
