"""Reads an Azure Table Atom feed (or single entry) with azure-storage 0.20.3's own code; prints the dump.

    python storage_atom_read.py FEED.xml

The bytes go the way a Query Entities response goes through `TableService.query_entities` in
azure-storage 0.20.3 (the last Python SDK that spoke Atom), no network involved: they become the
SDK's `HTTPResponse`, and `_ETreeXmlToObject.convert_response_to_feeds(response,
_convert_etree_element_to_entity)` turns each `<entry>` into an `Entity`. The dump reports each value
as the SDK holds it. Its documented limits show here: Int32 and Int64 both come back as Python ints
(so the type is only known by range), and DateTimes as dateutil datetimes (microseconds).
"""

import sys

from azure.storage._common_serialization import _ETreeXmlToObject
from azure.storage._http import HTTPResponse
from azure.storage.table._serialization import _convert_etree_element_to_entity
from azure.storage.table.models import EntityProperty

import canonical


def describe(name, value):
    """(type, lexical, extra fields) of a value as the SDK returned it."""
    if isinstance(value, EntityProperty):
        inner = value.value
        if isinstance(inner, (bytes, bytearray)):
            return value.type, canonical.b64(inner), {}
        if isinstance(inner, str):
            return value.type, inner, {}
        raise TypeError(f"property {name!r}: the SDK returned EntityProperty({value.type!r}, {inner!r})")
    return canonical.describe_plain(name, value)


def main(path):
    with open(path, "rb") as handle:
        body = handle.read()
    response = HTTPResponse(200, "OK", [("content-type", "application/atom+xml;charset=utf-8")], body)
    lines = []
    for entity in _ETreeXmlToObject.convert_response_to_feeds(response, _convert_etree_element_to_entity):
        values = dict(vars(entity))
        partition_key = values.pop("PartitionKey", None)
        row_key = values.pop("RowKey", None)
        timestamp = values.pop("Timestamp", None)
        etag = values.pop("etag", None)
        properties = []
        for name, value in values.items():
            edm, lexical, extra = describe(name, value)
            properties.append({"name": name, "type": edm, "value": lexical, **extra})
        lines.append(
            canonical.entity_line(
                partition_key,
                row_key,
                properties,
                timestamp=canonical.datetime_entry(timestamp) if timestamp is not None else None,
                etag=etag,
            )
        )
    canonical.emit(lines)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: storage_atom_read.py FEED.xml")
    main(sys.argv[1])
