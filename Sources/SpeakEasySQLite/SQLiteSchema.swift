import SpeakEasyStorage

/// The schema of the local storage account (documented in the LocalStoreSchema article; keep both in step).
enum SQLiteSchema {
    /// `PRAGMA application_id` of a SpeakEasy account: "SEAD".
    static let applicationID: Int64 = 0x5345_4144
    /// `PRAGMA user_version`; bump with a migration when the schema changes. Version 2 added
    /// `blocks`; `create` makes what is missing, so it also migrates a version-1 store. Version 3
    /// added blobs' content headers and metadata and containers' metadata (``addedInVersion3``), and
    /// `container_policies`, `table_policies` and `service_properties` (which `create` makes).
    static let version: Int64 = 3

    /// The columns version 3 added, for a store made before it. Their defaults are what such a
    /// store's blobs and containers had: no content headers, no metadata. `blobs` is rebuilt rather
    /// than altered: ALTER TABLE adds a column after `data`, and reading it would walk the content's
    /// overflow pages (a HEAD of a 40 MB blob would cost what its GET did). `create` then makes the
    /// new table.
    static let addedInVersion3 = """
        ALTER TABLE containers ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE blobs RENAME TO blobs_version2;
        """

    /// After ``addedInVersion3`` and `create`: the version-2 blobs moved into the new table.
    static let movedInVersion3 = """
        INSERT INTO blobs (container, name, content_type, content_md5, size, etag, last_modified, data)
            SELECT container, name, content_type, content_md5, size, etag, last_modified, data FROM blobs_version2;
        DROP TABLE blobs_version2;
        """

    /// A store of an earlier version opened read-only cannot be migrated. On each of its reading
    /// connections these temporary views stand in for its tables (SQLite looks a name up in `temp`
    /// before `main`), with the later columns at their defaults, so every query reads it unchanged.
    static let readOnlyViewsBeforeVersion3 = """
        CREATE TEMP VIEW blobs AS SELECT *, '' AS cache_control, '' AS content_disposition, '' AS content_encoding,
            '' AS content_language, '{}' AS metadata FROM main.blobs;
        CREATE TEMP VIEW containers AS SELECT *, '{}' AS metadata FROM main.containers;
        CREATE TEMP TABLE container_policies (container TEXT, position INTEGER, id TEXT, start TEXT, expiry TEXT, permission TEXT);
        CREATE TEMP TABLE table_policies (table_name TEXT, position INTEGER, id TEXT, start TEXT, expiry TEXT, permission TEXT);
        CREATE TEMP TABLE service_properties (service TEXT, document BLOB);
        """

    static let create = """
        CREATE TABLE IF NOT EXISTS tables (
            name    TEXT PRIMARY KEY,
            created TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS entities (
            table_name    TEXT NOT NULL REFERENCES tables(name),
            partition_key TEXT NOT NULL,
            row_key       TEXT NOT NULL,
            timestamp     TEXT NOT NULL,
            etag          TEXT NOT NULL,
            properties    TEXT NOT NULL,
            PRIMARY KEY (table_name, partition_key, row_key)
        );
        CREATE TABLE IF NOT EXISTS containers (
            name          TEXT PRIMARY KEY,
            public_access TEXT NOT NULL CHECK (public_access IN ('private', 'blob', 'container')),
            etag          TEXT NOT NULL,
            last_modified TEXT NOT NULL,
            metadata      TEXT NOT NULL DEFAULT '{}'
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS blobs (
            container     TEXT NOT NULL REFERENCES containers(name),
            name          TEXT NOT NULL,
            content_type  TEXT NOT NULL,
            content_md5   TEXT NOT NULL,
            size          INTEGER NOT NULL,
            etag          TEXT NOT NULL,
            last_modified TEXT NOT NULL,
            cache_control       TEXT NOT NULL DEFAULT '',
            content_disposition TEXT NOT NULL DEFAULT '',
            content_encoding    TEXT NOT NULL DEFAULT '',
            content_language    TEXT NOT NULL DEFAULT '',
            metadata            TEXT NOT NULL DEFAULT '{}',
            -- Last: a column after a large value is reached only through its overflow pages, so a
            -- blob's properties are read without walking its content.
            data          BLOB NOT NULL,
            PRIMARY KEY (container, name)
        );
        CREATE TABLE IF NOT EXISTS container_policies (
            container  TEXT NOT NULL,
            position   INTEGER NOT NULL,
            id         TEXT NOT NULL,
            start      TEXT,
            expiry     TEXT,
            permission TEXT,
            PRIMARY KEY (container, position)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS table_policies (
            table_name TEXT NOT NULL,
            position   INTEGER NOT NULL,
            id         TEXT NOT NULL,
            start      TEXT,
            expiry     TEXT,
            permission TEXT,
            PRIMARY KEY (table_name, position)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS blocks (
            container TEXT NOT NULL,
            blob      TEXT NOT NULL,
            block_id  TEXT NOT NULL,
            committed INTEGER NOT NULL,
            position  INTEGER NOT NULL,
            size      INTEGER NOT NULL,
            data      BLOB,
            PRIMARY KEY (container, blob, committed, block_id)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS service_properties (
            service  TEXT PRIMARY KEY,
            document BLOB NOT NULL
        ) WITHOUT ROWID;
        CREATE VIEW IF NOT EXISTS properties_view AS
            SELECT e.table_name, e.partition_key, e.row_key, p.key AS name,
                   coalesce(json_extract(e.properties, '$."' || p.key || '@odata.type"'),
                            CASE p.type WHEN 'text' THEN 'Edm.String' WHEN 'integer' THEN 'Edm.Int32'
                                        WHEN 'real' THEN 'Edm.Double' ELSE 'Edm.Boolean' END) AS type,
                   p.value
            FROM entities AS e, json_each(e.properties) AS p
            WHERE p.key NOT LIKE '%@odata.type';
        CREATE VIEW IF NOT EXISTS speakers_view AS
            SELECT row_key AS RowKey, timestamp AS Timestamp,
                   json_extract(properties, '$.Name') AS Name,
                   json_extract(properties, '$.Title') AS Title,
                   json_extract(properties, '$.Bio') AS Bio,
                   json_extract(properties, '$.ImageUrl') AS ImageUrl
            FROM entities WHERE table_name = 'events' AND partition_key = 'speakers';
        CREATE VIEW IF NOT EXISTS events_view AS
            SELECT row_key AS RowKey, timestamp AS Timestamp,
                   json_extract(properties, '$.EventDate') AS EventDate,
                   json_extract(properties, '$.EventName') AS EventName,
                   json_extract(properties, '$.EventLocation') AS EventLocation,
                   json_extract(properties, '$.EventDescription') AS EventDescription,
                   json_extract(properties, '$.SpeakerKey') AS SpeakerKey,
                   json_extract(properties, '$.SpeakerName') AS SpeakerName
            FROM entities WHERE table_name = 'events' AND partition_key = 'Events';
        """
}
