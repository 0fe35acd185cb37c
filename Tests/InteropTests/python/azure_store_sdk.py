"""The SDKs on an account our Azure client also writes and reads (`serve`, the development account).

    python azure_store_sdk.py read  TABLE_ENDPOINT BLOB_ENDPOINT EVENTS_DUMP
    python azure_store_sdk.py write TABLE_ENDPOINT BLOB_ENDPOINT DATA_JSON PHOTOS_DIR

`read`: what `seed --store` wrote, read with azure-data-tables 12.7.0 (every entity of table `events`,
both partitions, in the canonical dump of canonical.py, to EVENTS_DUMP) and azure-storage-blob 12.x
(every blob of container `speakers`, downloaded). Prints {"photos": [{"name", "content_type", "md5",
"size"}, ...]}, md5 being the base64 MD5 of the downloaded bytes.

`write`: the SDKs write a data set as a user of them would. DATA_JSON is an Azure Table JSON feed at
minimal metadata (`{"value": [...]}`, types in `Prop@odata.type`); each entity goes in with
`TableClient.submit_transaction` (100 a batch, one partition each), DateTimes as the exact strings
given (EntityProperty with EdmType.DATETIME: a Python datetime would lose the 7th digit). Every file in
PHOTOS_DIR is uploaded to container `speakers` (public read) with `BlobClient.upload_blob` and its
content type from the extension. Then the SDK reads table `events` back and writes the canonical dump
to stdout: what it holds, Timestamps and ETags included, for our export to equal.
"""

import base64
import hashlib
import json
import os
import sys

from azure.core.exceptions import ResourceExistsError
from azure.data.tables import EdmType, EntityProperty, TableServiceClient
from azure.storage.blob import BlobServiceClient, ContentSettings

import canonical
from tables_json_read import entity_line

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
TYPES = {"Edm.DateTime": EdmType.DATETIME, "Edm.Int64": EdmType.INT64, "Edm.Guid": EdmType.GUID, "Edm.Binary": EdmType.BINARY, "Edm.Double": EdmType.DOUBLE}
CONTENT_TYPES = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png"}


def connection(table_endpoint, blob_endpoint):
    return f"DefaultEndpointsProtocol=http;AccountName={ACCOUNT};AccountKey={KEY};TableEndpoint={table_endpoint};BlobEndpoint={blob_endpoint};"


def read(table_endpoint, blob_endpoint, events_dump):
    text = connection(table_endpoint, blob_endpoint)
    table = TableServiceClient.from_connection_string(text).get_table_client("events")
    with open(events_dump, "w", encoding="utf-8") as handle:
        for entity in table.list_entities():
            handle.write(entity_line(entity) + "\n")
    container = BlobServiceClient.from_connection_string(text).get_container_client("speakers")
    photos = []
    for blob in container.list_blobs():
        data = container.download_blob(blob.name).readall()
        photos.append({
            "name": blob.name,
            "content_type": blob.content_settings.content_type,
            "md5": base64.b64encode(hashlib.md5(data).digest()).decode("ascii"),
            "size": len(data),
        })
    print(json.dumps({"photos": photos}))


def sdk_entity(item):
    """A TableEntity-shaped dict from a minimal-metadata JSON object."""
    entity = {}
    for name, value in item.items():
        if "@odata." in name or name.startswith("odata.") or name == "Timestamp":
            continue
        edm = item.get(name + "@odata.type")
        entity[name] = EntityProperty(value, TYPES[edm]) if edm else value
    return entity


def write(table_endpoint, blob_endpoint, data_json, photos_dir):
    text = connection(table_endpoint, blob_endpoint)
    with open(data_json, "rb") as handle:
        items = json.load(handle)["value"]
    service = TableServiceClient.from_connection_string(text)
    table = service.create_table_if_not_exists("events")
    partitions = {}
    for item in items:
        partitions.setdefault(item["PartitionKey"], []).append(sdk_entity(item))
    for entities in partitions.values():
        for start in range(0, len(entities), 100):
            table.submit_transaction([("upsert", entity) for entity in entities[start:start + 100]])

    blobs = BlobServiceClient.from_connection_string(text)
    try:
        blobs.create_container("speakers", public_access="container")
    except ResourceExistsError:
        pass
    for name in sorted(os.listdir(photos_dir)):
        with open(os.path.join(photos_dir, name), "rb") as handle:
            content_type = CONTENT_TYPES[os.path.splitext(name)[1].lower()]
            blobs.get_blob_client("speakers", name).upload_blob(handle.read(), overwrite=True, content_settings=ContentSettings(content_type=content_type))

    canonical.emit([entity_line(entity) for entity in table.list_entities()])


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "read":
        read(*sys.argv[2:])
    elif len(sys.argv) == 6 and sys.argv[1] == "write":
        write(*sys.argv[2:])
    else:
        sys.exit(__doc__)
