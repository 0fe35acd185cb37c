"""Drives a running `serve` with azure-data-tables 12.7.0, the official Table client, and prints what it saw.

    python serve_tables_sdk.py TABLE_ENDPOINT

TABLE_ENDPOINT is http://127.0.0.1:PORT/devstoreaccount1; the server pages queries 7 entities at a
time (--page-size 7), so every query below crosses pages. The client gets the development account's
published key in a connection string, as a user would; every request is built, signed and read by
the SDK itself, and an answer it cannot read raises. The printed JSON is what the Swift test checks.
"""

import json
import sys
import uuid
from datetime import datetime, timedelta, timezone

from azure.core import MatchConditions
from azure.core.exceptions import ClientAuthenticationError, HttpResponseError, ResourceExistsError, ResourceModifiedError, ResourceNotFoundError
from azure.data.tables import (EdmType, EntityProperty, TableClient, TableSasPermissions, TableServiceClient, TableTransactionError,
                               UpdateMode, generate_table_sas)
from azure.core.credentials import AzureNamedKeyCredential

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

endpoint = sys.argv[1]
connection = f"DefaultEndpointsProtocol=http;AccountName={ACCOUNT};AccountKey={KEY};TableEndpoint={endpoint};"
service = TableServiceClient.from_connection_string(connection)
seen = {}


def code(error):
    """Azure's error code as the SDK reports it: its own attribute, else the body it kept."""
    found = getattr(error, "error_code", None)
    if found:
        return str(found.value if hasattr(found, "value") else found)
    return json.loads(error.response.text())["odata.error"]["code"]


table = service.create_table("speakers")
try:
    service.create_table("speakers")
    seen["duplicate_table"] = "created"
except ResourceExistsError as error:
    seen["duplicate_table"] = code(error)

when = datetime(2026, 7, 1, 4, 34, 0, 123456, tzinfo=timezone.utc)
guid = uuid.UUID("c9da6455-213d-42c9-9a79-3e9149a57833")
typed = {
    "PartitionKey": "types", "RowKey": "every",
    "String": "O'Brien — ünïcode",
    "Int32": 42,
    "Int64": EntityProperty(2**53 + 1, EdmType.INT64),
    "Double": 2.5,
    "WholeDouble": EntityProperty(10.0, EdmType.DOUBLE),
    "Bool": True,
    "Date": when,
    "Guid": guid,
    "Binary": b"\x00\x01\xfe\xff",
}
table.upsert_entity(typed)
back = table.get_entity("types", "every")


def describe(value):
    if isinstance(value, EntityProperty):
        return [str(value.edm_type.value if hasattr(value.edm_type, "value") else value.edm_type), repr(value.value)]
    return [type(value).__name__, value.isoformat() if isinstance(value, datetime) else repr(value)]


seen["typed"] = {name: describe(back[name]) for name in typed if name not in ("PartitionKey", "RowKey")}
seen["typed_date_exact"] = back["Date"] == when
seen["typed_etag"] = back.metadata["etag"].startswith('W/"datetime')

table.upsert_entity({"PartitionKey": "types", "RowKey": "every", "Extra": "merged"}, mode=UpdateMode.MERGE)
merged = table.get_entity("types", "every")
seen["merge_kept"] = merged["Int32"] == 42 and merged["Extra"] == "merged"
table.upsert_entity({"PartitionKey": "types", "RowKey": "every", "Only": 1}, mode=UpdateMode.REPLACE)
seen["replace_dropped"] = sorted(k for k in table.get_entity("types", "every").keys())

# ETags: a stale one is refused; the current one is accepted.
current = table.get_entity("types", "every")
table.update_entity({"PartitionKey": "types", "RowKey": "every", "Only": 2}, etag=current.metadata["etag"],
                    match_condition=MatchConditions.IfNotModified)
try:
    table.update_entity({"PartitionKey": "types", "RowKey": "every", "Only": 3}, etag=current.metadata["etag"],
                        match_condition=MatchConditions.IfNotModified)
    seen["stale_etag"] = "updated"
except ResourceModifiedError as error:
    seen["stale_etag"] = code(error)
try:
    table.create_entity({"PartitionKey": "types", "RowKey": "every"})
    seen["duplicate_entity"] = "inserted"
except ResourceExistsError as error:
    seen["duplicate_entity"] = code(error)

# A 100-operation batch, then one that fails at its fourth operation.
table.submit_transaction([("create", {"PartitionKey": "batch", "RowKey": f"{i:03d}", "N": i, "Even": i % 2 == 0}) for i in range(100)])
seen["batch_count"] = len(list(table.query_entities("PartitionKey eq 'batch'")))
failing = [("upsert", {"PartitionKey": "batch", "RowKey": "new1"}), ("upsert", {"PartitionKey": "batch", "RowKey": "new2"}),
           ("update", {"PartitionKey": "batch", "RowKey": "000", "N": -1}), ("create", {"PartitionKey": "batch", "RowKey": "001"})]
try:
    table.submit_transaction(failing)
    seen["batch_failure"] = "committed"
except TableTransactionError as error:
    seen["batch_failure"] = [error.index, code(error)]
seen["batch_rolled_back"] = len(list(table.query_entities("PartitionKey eq 'batch'"))) == 100 and \
    table.get_entity("batch", "000")["N"] == 0

# Filters over every literal type, paged 7 at a time by the server.
for i in range(30):
    table.upsert_entity({
        "PartitionKey": "q", "RowKey": f"{i:02d}", "I": i, "L": EntityProperty(i * 10**12, EdmType.INT64), "D": i / 2,
        "B": i % 3 == 0, "T": datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(days=i), "G": uuid.UUID(int=i),
        "S": f"name{i:02d}", "X": bytes([i]),
    })
filters = {
    "int": ("PartitionKey eq 'q' and I ge 10 and I lt 20", 10),
    "int64": ("PartitionKey eq 'q' and L gt 25000000000000L", 4),
    "double": ("PartitionKey eq 'q' and D le 3.5", 8),
    "bool": ("PartitionKey eq 'q' and B eq true", 10),
    "datetime": ("PartitionKey eq 'q' and T ge datetime'2026-01-21T00:00:00Z'", 10),
    "guid": ("PartitionKey eq 'q' and G eq guid'00000000-0000-0000-0000-000000000005'", 1),
    "string": ("PartitionKey eq 'q' and (S eq 'name01' or S eq 'name29') and not (I eq 1)", 1),
    "binary": ("PartitionKey eq 'q' and X eq X'07'", 1),
    "cross_type": ("PartitionKey eq 'q' and D gt 5", 0),
    "missing": ("PartitionKey eq 'q' and Nothing ne 1", 0),
    "keys": ("PartitionKey eq 'q' and RowKey gt '25'", 4),
}
seen["filters"] = {name: [len(list(table.query_entities(text))), want] for name, (text, want) in filters.items()}
pages = list(table.query_entities("PartitionKey eq 'q'", results_per_page=7).by_page())
seen["page_sizes"] = [len(list(page)) for page in pages]
seen["select"] = sorted(next(iter(table.query_entities("RowKey eq '03'", select=["I", "S"]))).keys())
seen["tables"] = sorted(t.name for t in service.list_tables())
seen["table_filter"] = [t.name for t in service.query_tables("TableName eq 'speakers'")]

try:
    table.get_entity("types", "missing")
    seen["missing_entity"] = "found"
except ResourceNotFoundError as error:
    seen["missing_entity"] = code(error)
try:
    list(table.query_entities("startswith(S, 'n')"))
    seen["function_filter"] = "answered"
except HttpResponseError as error:
    seen["function_filter"] = [error.status_code, code(error)]

wrong = TableServiceClient(endpoint=endpoint, credential=AzureNamedKeyCredential(ACCOUNT, "A" * 86 + "=="))
try:
    list(wrong.list_tables())
    seen["wrong_key"] = "listed"
except ClientAuthenticationError as error:
    seen["wrong_key"] = code(error)

start = datetime.now(timezone.utc) - timedelta(minutes=5)
sas = generate_table_sas(AzureNamedKeyCredential(ACCOUNT, KEY), "speakers", permission=TableSasPermissions(read=True),
                         start=start, expiry=start + timedelta(hours=1))
from azure.core.credentials import AzureSasCredential
reader = TableClient(endpoint=endpoint, table_name="speakers", credential=AzureSasCredential(sas))
seen["sas_read"] = len(list(reader.query_entities("PartitionKey eq 'batch'")))
try:
    reader.create_entity({"PartitionKey": "sas", "RowKey": "1"})
    seen["sas_write"] = "written"
except HttpResponseError as error:
    seen["sas_write"] = code(error)

table.delete_entity("types", "every")
seen["deleted"] = len(list(table.query_entities("PartitionKey eq 'types'")))
service.delete_table("speakers")
seen["tables_after"] = [t.name for t in service.list_tables()]
print(json.dumps(seen))
