"""Serialises a fixed set of entities with azure-data-tables' own code and prints what they must read as.

    python tables_json_write.py OUTDIR

For each entity the body is made exactly as `TableClient.create_entity` makes it in azure-data-tables
12.7.0, no network involved: `azure.data.tables._serialize._add_entity_properties` adds the
`@odata.type` annotations, the generated client's Serializer prepares the body (`"{object}"`), and
azure-core's `HttpRequest(json=…)` encodes it (its AzureJSONEncoder) into the request body text.
The script writes, in OUTDIR:

- `entity-N.json`: the request body for entity N, byte for byte as the SDK would send it;
- `feed.json`: those bodies, untouched, as the items of a `{"value":[…]}` query response.

On stdout it prints the canonical dump (see canonical.py) of the entities *as declared here*, which
is what a reader must get back from those files.
"""

import os
import sys
from datetime import datetime, timedelta, timezone
from uuid import UUID

from azure.core.rest import HttpRequest
from azure.data.tables import EdmType, EntityProperty
from azure.data.tables._deserialize import _from_entity_datetime
from azure.data.tables._generated import models as _models
from azure.data.tables._generated._serialization import Serializer
from azure.data.tables._serialize import _add_entity_properties

import canonical

UTC = timezone.utc

# A 64 KiB (UTF-8) string mixing 1-, 2-, 3- and 4-byte characters and the JSON escapes.
_CHUNK = "aé€😀\"\\\n\t/"
LONG_STRING = (_CHUNK * (65536 // len(_CHUNK.encode("utf-8")) + 1)).encode("utf-8")[:65536].decode("utf-8", "ignore")


def prop(name, sdk_value, edm, lexical, **extra):
    """A property: the value handed to the SDK, and the type and lexical form it must read back as."""
    return (name, sdk_value, {"name": name, "type": edm, "value": lexical, **extra})


def dt(value):
    """The instant of a DateTime, to the microsecond, for the reader to match."""
    return {"micros": canonical.micros(value)}


def entities():
    d_micro = datetime(2024, 5, 1, 10, 0, 0, 123456, tzinfo=UTC)
    d_offset = datetime(2024, 5, 1, 12, 0, 0, 500000, tzinfo=timezone(timedelta(hours=2)))
    d_whole = datetime(1843, 7, 1, 9, 0, 0, tzinfo=UTC)
    d_max = datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    d_azure_min = datetime(1601, 1, 1, tzinfo=UTC)
    # What the SDK hands back for a service value with 7 digits; it sends that string back unchanged.
    d_service = _from_entity_datetime("2012-11-10T03:04:05.0000001Z")
    guid = UUID("c9da6455-213d-42c9-9a79-3e9149a57833")
    return [
        (
            "speaker",
            "every-type",
            [
                prop("Text", "Ada Lovelace", "Edm.String", "Ada Lovelace"),
                prop("Empty", "", "Edm.String", ""),
                prop("Int32Max", 2147483647, "Edm.Int32", "2147483647"),
                prop("Int32Min", -2147483648, "Edm.Int32", "-2147483648"),
                prop("Int32Annotated", EntityProperty(-7, EdmType.INT32), "Edm.Int32", "-7"),
                prop("Int64Max", EntityProperty(2**63 - 1, EdmType.INT64), "Edm.Int64", "9223372036854775807"),
                prop("Int64Min", EntityProperty(-(2**63), EdmType.INT64), "Edm.Int64", "-9223372036854775808"),
                prop("Int64Small", EntityProperty(1, EdmType.INT64), "Edm.Int64", "1"),
                prop("DoubleNaN", float("nan"), "Edm.Double", "NaN"),
                prop("DoubleInfinity", float("inf"), "Edm.Double", "Infinity"),
                prop("DoubleNegativeInfinity", float("-inf"), "Edm.Double", "-Infinity"),
                prop("DoubleNegativeZero", -0.0, "Edm.Double", "-0.0"),
                prop("DoubleMin", 5e-324, "Edm.Double", "5e-324"),
                prop("DoubleMax", 1.7976931348623157e308, "Edm.Double", "1.7976931348623157e+308"),
                prop("DoubleTen", 10.0, "Edm.Double", "10.0"),
                prop("DoubleFraction", 0.1, "Edm.Double", "0.1"),
                prop("True", True, "Edm.Boolean", "true"),
                prop("False", False, "Edm.Boolean", "false"),
                prop("DateMicro", d_micro, "Edm.DateTime", "2024-05-01T10:00:00.123456Z", **dt(d_micro)),
                prop("DateOffset", d_offset, "Edm.DateTime", "2024-05-01T10:00:00.5Z", **dt(d_offset)),
                prop("DateWhole", d_whole, "Edm.DateTime", "1843-07-01T09:00:00Z", **dt(d_whole)),
                prop("DateMax", d_max, "Edm.DateTime", "9999-12-31T23:59:59.999999Z", **dt(d_max)),
                prop("DateAzureMin", d_azure_min, "Edm.DateTime", "1601-01-01T00:00:00Z", **dt(d_azure_min)),
                prop("DateServiceTick", d_service, "Edm.DateTime", "2012-11-10T03:04:05.0000001Z", **dt(d_service)),
                prop("Guid", guid, "Edm.Guid", "c9da6455-213d-42c9-9a79-3e9149a57833"),
                prop("Binary", bytes([0, 1, 2, 0x7F, 0x80, 0xFE, 0xFF]), "Edm.Binary", canonical.b64([0, 1, 2, 0x7F, 0x80, 0xFE, 0xFF])),
                prop("BinaryEmpty", b"", "Edm.Binary", ""),
                # None is skipped by the SDK: the property must be absent.
                ("Missing", None, None),
            ],
        ),
        (
            "it's a \"key\"",
            "row with spaces & <xml> 'quotes'",
            [
                prop("Astral", "Ada 😀 𝄞 \U0010FFFF", "Edm.String", "Ada 😀 𝄞 \U0010FFFF"),
                prop("XMLSpecial", "<&>\"'", "Edm.String", "<&>\"'"),
                prop("Newlines", "one\ntwo\r\nthree\rfour", "Edm.String", "one\ntwo\r\nthree\rfour"),
                prop("Controls", "tab\there\u0001\u001f\u007f", "Edm.String", "tab\there\u0001\u001f\u007f"),
                prop("Padded", "  spaced  ", "Edm.String", "  spaced  "),
                prop("NumericText", "10", "Edm.String", "10"),
                prop("Long", LONG_STRING, "Edm.String", LONG_STRING),
            ],
        ),
    ]


def main(outdir):
    serializer = Serializer({k: v for k, v in _models.__dict__.items() if isinstance(v, type)})
    serializer.client_side_validation = False  # as the generated client sets it
    bodies = []
    expected = []
    for index, (partition_key, row_key, properties) in enumerate(entities()):
        entity = {"PartitionKey": partition_key, "RowKey": row_key}
        entity.update({name: value for name, value, _ in properties})
        # TableClient.create_entity -> _add_entity_properties -> table.insert_entity(table_entity_properties=…)
        entity_json = _add_entity_properties(entity)
        body = HttpRequest("POST", "https://speakeasy.table.core.windows.net/speakers", json=serializer.body(entity_json, "{object}")).content
        data = body.encode("utf-8") if isinstance(body, str) else bytes(body)
        with open(os.path.join(outdir, f"entity-{index}.json"), "wb") as handle:
            handle.write(data)
        bodies.append(data)
        expected.append(canonical.entity_line(partition_key, row_key, [p for _, _, p in properties if p is not None]))
    with open(os.path.join(outdir, "feed.json"), "wb") as handle:
        handle.write(b'{"value":[' + b",".join(bodies) + b"]}")
    canonical.emit(expected)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: tables_json_write.py OUTDIR")
    main(sys.argv[1])
