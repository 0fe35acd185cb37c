"""The canonical dump the Swift interop tests compare against.

One JSON object per entity and line:

    {"PartitionKey": str, "RowKey": str,
     "Timestamp": {"value": str, "micros": int} | null, "etag": str | null,
     "properties": [{"name": str, "type": "Edm.…", "value": str, ["micros": int], ["compare": "seconds"]}, …]}

`value` is the lexical form: strings as they are, Int32/Int64 in decimal, Double as Python's
shortest repr with NaN/Infinity/-Infinity spelled as Azure JSON does, Boolean true/false, Guid
lower-case 8-4-4-4-12, Binary base64 with padding, DateTime the SDK's own string when it keeps one,
else ISO 8601. `micros` is a DateTime as the SDK's Python object holds it: microseconds since
0001-01-01T00:00:00Z, so the Swift side can check the instant the SDK parsed (Python datetimes stop
at microseconds). `compare: "seconds"` marks a value the SDK is documented to keep only to the second.

Nothing here (de)serialises entities: it only prints what the SDK produced or what a test declares.
"""

import base64
import json
import math
import sys
from datetime import datetime, timezone

_EPOCH = datetime(1, 1, 1, tzinfo=timezone.utc)


def double_lexical(value):
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)


def micros(value):
    """Microseconds since 0001-01-01T00:00:00Z of an aware (or UTC-naive) datetime."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    delta = value.astimezone(timezone.utc) - _EPOCH
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def int_type(value):
    """Edm type of a bare Python int, by range, as both SDKs decide it."""
    return "Edm.Int32" if -(2**31) <= value < 2**31 else "Edm.Int64"


def datetime_entry(value, service_value=None):
    entry = {"value": service_value or value.isoformat(), "micros": micros(value)}
    return entry


def describe_plain(name, value, service_value=None):
    """(type, lexical, extra fields) of a plain Python value as either SDK returns it."""
    if isinstance(value, bool):  # before int: bool is an int in Python
        return "Edm.Boolean", "true" if value else "false", {}
    if isinstance(value, int):
        return int_type(value), str(value), {}
    if isinstance(value, float):
        return "Edm.Double", double_lexical(value), {}
    if isinstance(value, str):
        return "Edm.String", value, {}
    if isinstance(value, datetime):
        entry = datetime_entry(value, service_value)
        return "Edm.DateTime", entry["value"], {"micros": entry["micros"]}
    raise TypeError(f"property {name!r}: the SDK returned an unexpected {type(value).__name__}: {value!r}")


def entity_line(partition_key, row_key, properties, timestamp=None, etag=None):
    return json.dumps(
        {"PartitionKey": partition_key, "RowKey": row_key, "Timestamp": timestamp, "etag": etag, "properties": properties},
        ensure_ascii=True,
    )


def b64(data):
    return base64.b64encode(bytes(data)).decode("ascii")


def emit(lines):
    out = sys.stdout
    for line in lines:
        out.write(line)
        out.write("\n")
    out.flush()
