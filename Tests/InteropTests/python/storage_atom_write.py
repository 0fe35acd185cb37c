"""Serialises a fixed set of entities with azure-storage 0.20.3's own code; prints what they must read as.

    python storage_atom_write.py OUTDIR

Each entity becomes the body `TableService.insert_entity` sends in azure-storage 0.20.3, no network
involved: `_get_request_body(_convert_entity_to_xml(entity))`, a single `<entry>` document. They are
written as OUTDIR/entry-N.xml. On stdout: the canonical dump (see canonical.py) of the entities *as
declared here*, within what the SDK can write (its own serialiser's limits):

- DateTime is written to the whole second (`%Y-%m-%dT%H:%M:%SZ`), so the expected value is the
  declared instant truncated to the second (`compare: "seconds"`);
- strings carry `m:type="Edm.String"`, keys included;
- a None property is written as `<d:X m:null="true" />` and must read as absent.

Entity `special-doubles` holds float NaN/±inf, which the SDK writes with Python's `str()`: `nan`,
`inf`, `-inf` (not `NaN`/`INF`/`Infinity`). Entity `carriage-returns` holds CRs, which the SDK writes
unescaped (it uses xml.sax.saxutils.escape), so any conforming XML parser reads them as LF (XML 1.0
§2.11); the expected value says so.
"""

import os
import sys
from datetime import datetime, timedelta, timezone

from azure.storage._common_serialization import _get_request_body
from azure.storage.table._serialization import _convert_entity_to_xml
from azure.storage.table.models import EntityProperty

import canonical

UTC = timezone.utc

_CHUNK = "aé€😀<&>\"'\n\t"
LONG_STRING = (_CHUNK * (65536 // len(_CHUNK.encode("utf-8")) + 1)).encode("utf-8")[:65536].decode("utf-8", "ignore")


def prop(name, sdk_value, edm, lexical, **extra):
    """A property: the value handed to the SDK, and the type and lexical form it must read back as."""
    return (name, sdk_value, {"name": name, "type": edm, "value": lexical, **extra})


def seconds(value):
    """A DateTime the SDK keeps only to the second: its instant, to the microsecond, as declared."""
    return {"micros": canonical.micros(value), "compare": "seconds"}


def entities():
    d_micro = datetime(2024, 5, 1, 10, 0, 0, 123456, tzinfo=UTC)
    d_offset = datetime(2024, 5, 1, 12, 0, 0, 999999, tzinfo=timezone(timedelta(hours=2)))
    d_naive = datetime(1843, 7, 1, 9, 0, 0)  # the SDK takes a naive datetime as UTC
    d_max = datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    d_azure_min = datetime(1601, 1, 1, tzinfo=UTC)
    binary = bytes([0, 1, 2, 0x7F, 0x80, 0xFE, 0xFF])
    return [
        (
            "speaker",
            "every-type",
            [
                prop("Text", "Ada Lovelace", "Edm.String", "Ada Lovelace"),
                prop("Empty", "", "Edm.String", ""),
                prop("Int32Max", 2147483647, "Edm.Int32", "2147483647"),
                prop("Int32Min", -2147483648, "Edm.Int32", "-2147483648"),
                prop("Int64Max", 2**63 - 1, "Edm.Int64", "9223372036854775807"),
                prop("Int64Min", -(2**63), "Edm.Int64", "-9223372036854775808"),
                prop("Int64AboveInt32", 2**31, "Edm.Int64", "2147483648"),
                prop("Int64Small", EntityProperty("Edm.Int64", 1), "Edm.Int64", "1"),
                prop("DoubleNegativeZero", -0.0, "Edm.Double", "-0.0"),
                prop("DoubleMin", 5e-324, "Edm.Double", "5e-324"),
                prop("DoubleMax", 1.7976931348623157e308, "Edm.Double", "1.7976931348623157e+308"),
                prop("DoubleTen", 10.0, "Edm.Double", "10.0"),
                prop("DoubleFraction", 0.1, "Edm.Double", "0.1"),
                prop("True", True, "Edm.Boolean", "true"),
                prop("False", False, "Edm.Boolean", "false"),
                prop("DateMicro", d_micro, "Edm.DateTime", "2024-05-01T10:00:00Z", **seconds(d_micro)),
                prop("DateOffset", d_offset, "Edm.DateTime", "2024-05-01T10:00:00Z", **seconds(d_offset)),
                prop("DateNaive", d_naive, "Edm.DateTime", "1843-07-01T09:00:00Z", **seconds(d_naive)),
                prop("DateMax", d_max, "Edm.DateTime", "9999-12-31T23:59:59Z", **seconds(d_max)),
                prop("DateAzureMin", d_azure_min, "Edm.DateTime", "1601-01-01T00:00:00Z", **seconds(d_azure_min)),
                prop("Guid", EntityProperty("Edm.Guid", "c9da6455-213d-42c9-9a79-3e9149a57833"), "Edm.Guid", "c9da6455-213d-42c9-9a79-3e9149a57833"),
                prop("Binary", EntityProperty("Edm.Binary", binary), "Edm.Binary", canonical.b64(binary)),
                prop("BinaryEmpty", EntityProperty("Edm.Binary", b""), "Edm.Binary", ""),
                # Written as m:null="true": must read as absent.
                ("Missing", None, None),
            ],
        ),
        (
            "it's a \"key\"",
            "row with spaces & <xml> 'quotes'",
            [
                prop("Astral", "Ada 😀 𝄞 \U0010FFFF", "Edm.String", "Ada 😀 𝄞 \U0010FFFF"),
                prop("XMLSpecial", "<&>\"' ]]> &amp;", "Edm.String", "<&>\"' ]]> &amp;"),
                prop("Newlines", "one\ntwo\n\nthree\n", "Edm.String", "one\ntwo\n\nthree\n"),
                prop("Tabs", "\ttab\there\t", "Edm.String", "\ttab\there\t"),
                prop("Padded", "  spaced  ", "Edm.String", "  spaced  "),
                prop("NumericText", "10", "Edm.String", "10"),
                prop("Long", LONG_STRING, "Edm.String", LONG_STRING),
            ],
        ),
        (
            "speaker",
            "special-doubles",
            [
                prop("DoubleNaN", float("nan"), "Edm.Double", "NaN"),
                prop("DoubleInfinity", float("inf"), "Edm.Double", "Infinity"),
                prop("DoubleNegativeInfinity", float("-inf"), "Edm.Double", "-Infinity"),
            ],
        ),
        (
            "speaker",
            "carriage-returns",
            [
                prop("CarriageReturns", "a\r\nb\rc", "Edm.String", "a\nb\nc"),
            ],
        ),
    ]


def main(outdir):
    expected = []
    for index, (partition_key, row_key, properties) in enumerate(entities()):
        entity = {"PartitionKey": partition_key, "RowKey": row_key}
        entity.update({name: value for name, value, _ in properties})
        # TableService.insert_entity: request.body = _get_request_body(_convert_entity_to_xml(entity))
        body = _get_request_body(_convert_entity_to_xml(entity))
        with open(os.path.join(outdir, f"entry-{index}.xml"), "wb") as handle:
            handle.write(body)
        expected.append(canonical.entity_line(partition_key, row_key, [p for _, _, p in properties if p is not None]))
    canonical.emit(expected)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: storage_atom_write.py OUTDIR")
    main(sys.argv[1])
