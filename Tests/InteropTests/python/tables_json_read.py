"""Reads an Azure Table JSON feed with azure-data-tables' own code and prints the canonical dump.

    python tables_json_read.py FEED.json

The bytes go the way a Query Entities response body goes through azure-data-tables 12.7.0, no
network involved: the generated client's RawDeserializer decodes the body by its Content-Type header, its
Deserializer builds the `TableEntityQueryResponse` model, and each item of `value` is turned into a
`TableEntity` by `azure.data.tables._deserialize._convert_to_entity` (as `TableEntityPropertiesPaged`
does). The dump then reports each value as the SDK holds it.
"""

import sys
from uuid import UUID

from azure.data.tables import EntityProperty, EdmType
from azure.data.tables._deserialize import _convert_to_entity, TablesEntityDatetime
from azure.data.tables._generated import models as _models
from azure.data.tables._generated._serialization import Deserializer, RawDeserializer

import canonical

# The Content-Type the service answers a query with at minimal metadata, its default.
CONTENT_TYPE = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8"


def describe(name, value):
    """(type, lexical, extra fields) of a value as the SDK returned it."""
    if isinstance(value, EntityProperty):
        edm = value.edm_type.value if isinstance(value.edm_type, EdmType) else str(value.edm_type)
        _, lexical, extra = describe(name, value.value)
        return edm, lexical, extra
    if isinstance(value, UUID):
        return "Edm.Guid", str(value), {}
    if isinstance(value, (bytes, bytearray)):
        return "Edm.Binary", canonical.b64(value), {}
    service = value.tables_service_value if isinstance(value, TablesEntityDatetime) else None
    return canonical.describe_plain(name, value, service)


def entity_line(entity):
    """The canonical dump line of a TableEntity as the SDK returned it."""
    metadata = entity.metadata
    timestamp = metadata.get("timestamp")
    properties = []
    for name, value in entity.items():
        if name in ("PartitionKey", "RowKey"):
            continue
        edm, lexical, extra = describe(name, value)
        properties.append({"name": name, "type": edm, "value": lexical, **extra})
    return canonical.entity_line(
        entity.get("PartitionKey"),
        entity.get("RowKey"),
        properties,
        timestamp=canonical.datetime_entry(timestamp, timestamp.tables_service_value) if timestamp else None,
        etag=metadata.get("etag"),
    )


def main(path):
    with open(path, "rb") as handle:
        body = handle.read()
    deserialize = Deserializer({k: v for k, v in _models.__dict__.items() if isinstance(v, type)})
    response = deserialize("TableEntityQueryResponse", RawDeserializer.deserialize_from_http_generics(body, {"content-type": CONTENT_TYPE}))
    canonical.emit([entity_line(_convert_to_entity(item)) for item in response.value])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: tables_json_read.py FEED.json")
    main(sys.argv[1])
