"""Azurite's own Table test cases, ported, run against a running `serve`; prints what each saw.

    python azurite_table_cases.py TABLE_ENDPOINT

Each case is one of Azurite's (tests/table/apis/*.test.ts at 9074bea3), many of which encode an answer
of the real service with the Azure or Azurite issue that taught it; the name says which. The requests
are made by azure-data-tables 12.7.0 where it can send them, and otherwise as raw HTTP (`requests`)
carrying an account SAS that the SDK's own `generate_account_sas` signed, so that no signing of ours
is involved. The printed JSON maps each case to what came back; the Swift test (AzuriteTableCasesTests)
holds it against the expected answers and their sources.
"""

import json
import sys
from datetime import datetime, timedelta, timezone
from urllib.parse import quote

import requests
from azure.core import MatchConditions
from azure.core.credentials import AzureNamedKeyCredential, AzureSasCredential
from azure.core.exceptions import HttpResponseError
from azure.data.tables import (AccountSasPermissions, EdmType, EntityProperty, ResourceTypes, TableAnalyticsLogging, TableCorsRule,
                               TableAccessPolicy, TableClient, TableRetentionPolicy, TableServiceClient, TableTransactionError, UpdateMode,
                               generate_account_sas, generate_table_sas)

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

endpoint = sys.argv[1]
credential = AzureNamedKeyCredential(ACCOUNT, KEY)
service = TableServiceClient(endpoint=endpoint, credential=credential)
sas = generate_account_sas(credential, resource_types=ResourceTypes(service=True, container=True, object=True),
                           permission=AccountSasPermissions(read=True, write=True, delete=True, list=True, add=True, update=True),
                           expiry=datetime.now(timezone.utc) + timedelta(hours=1))
seen = {}


def code(error):
    """Azure's error code as the SDK reports it, else from the body it kept."""
    found = getattr(error, "error_code", None)
    if found:
        return str(found.value if hasattr(found, "value") else found)
    try:
        return json.loads(error.response.text())["odata.error"]["code"]
    except Exception:  # noqa: BLE001 - a body that is not JSON has no code to report
        return None


def outcome(call):
    """[status, code] of a call the SDK makes: 200 for success, else the error's."""
    try:
        call()
        return [200, None]
    except TableTransactionError as error:
        return [error.status_code, code(error), error.index]
    except HttpResponseError as error:
        return [error.status_code, code(error)]


def raw(method, path, query="", headers=None, body=None):
    """A raw request with the account SAS: [status, code or None, parsed JSON body or None]."""
    url = f"{endpoint}/{path}?{sas}" + (f"&{query}" if query else "")
    sent = {"Accept": "application/json;odata=nometadata", "x-ms-version": "2019-02-02", "DataServiceVersion": "3.0"}
    sent.update(headers or {})
    reply = requests.request(method, url, headers=sent, data=body, timeout=30)
    try:
        document = reply.json()
    except ValueError:
        document = None
    error = (document or {}).get("odata.error", {}).get("code") if isinstance(document, dict) else None
    return [reply.status_code, error, document]


table = service.create_table("azuritecases")
for row in range(5):
    table.create_entity({"PartitionKey": "p", "RowKey": str(row), "number": row})

# table.validation.rest.test.ts: names Azure refuses (400), and names that contain another's.
seen["table_names"] = {name: raw("POST", "Tables", headers={"Content-Type": "application/json"}, body=json.dumps({"TableName": name}))[:2]
                       for name in ["this-should-not-work!", "1abc", "a" * 64, "ab", "tables", "azuritecasesx", "azuritecase"]}
seen["table_names_deleted"] = [outcome(lambda: service.delete_table("azuritecasesx")), outcome(lambda: service.delete_table("azuritecase"))]
seen["table_names_left"] = sorted(t.name for t in service.list_tables())

# table.entity.issues.test.ts, "Malformed Etag when sent as input throws InvalidInput" (issue #2013; also #730, #1829).
seen["malformed_etag"] = {
    etag: [outcome(lambda: table.delete_entity("p", "0", etag=etag, match_condition=MatchConditions.IfNotModified)),
           outcome(lambda: table.update_entity({"PartitionKey": "p", "RowKey": "0"}, mode=UpdateMode.MERGE, etag=etag,
                                               match_condition=MatchConditions.IfNotModified))]
    for etag in ["MalformedEtag", "wrong", '"']
}
seen["still_there"] = len(list(table.query_entities("PartitionKey eq 'p'")))

# table.entity.issues.test.ts "should parce a simple query entity" (issue #2450) and #1573, #1880: an empty
# $filter filters nothing, for entities and for tables.
status, _, document = raw("GET", "azuritecases()", "$filter=")
seen["empty_filter_entities"] = [status, len((document or {}).get("value", []))]
status, _, document = raw("GET", "Tables", "$filter=")
seen["empty_filter_tables"] = [status, [t["TableName"] for t in (document or {}).get("value", [])]]
seen["true_filter"] = len(list(table.query_entities("true")))
seen["false_filter"] = len(list(table.query_entities("false")))

# table.entity.rest.test.ts "Should not receive any results when querying with filter and top = 0" (#1428),
# the query Storage Explorer sent.
status, _, document = raw("GET", "azuritecases", "%24select=&%24filter=PartitionKey%20eq%20%27p%27&%24top=0")
seen["top_zero"] = [status, len((document or {}).get("value", [])) if isinstance(document, dict) else None]

# An unknown x-ms-version: Azure refuses it (Azurite's checkApiVersion, tableStorageContext.middleware.ts).
status, error, _ = raw("POST", "Tables", headers={"x-ms-version": "invalid", "Content-Type": "application/json"},
                       body=json.dumps({"TableName": "versioned"}))
seen["invalid_version"] = [status, error, "versioned" in [t.name for t in service.list_tables()]]

# table.test.ts: table names are case-insensitive ("MyTable" deleted as "MYTABLE").
service.create_table("MyTable")
seen["delete_other_case"] = outcome(lambda: service.delete_table("MYTABLE"))
seen["tables_after_delete"] = sorted(t.name for t in service.list_tables())
seen["create_other_case"] = outcome(lambda: service.create_table("AZURITECASES"))

# table.batch.errorhandling.test.ts: an operation Azure refuses comes back inside the 202 as the SDK's
# TableTransactionError with its index, not as a refusal of the whole request.
seen["batch_slash_in_key"] = outcome(lambda: table.submit_transaction(
    [("create", {"PartitionKey": "b", "RowKey": "1"}), ("create", {"PartitionKey": "b", "RowKey": "a/b"})]))
seen["batch_101"] = outcome(lambda: table.submit_transaction(
    [("create", {"PartitionKey": "c", "RowKey": str(row)}) for row in range(101)]))
seen["batch_nothing_written"] = len(list(table.query_entities("PartitionKey eq 'b' or PartitionKey eq 'c'")))

# table.entity.query.test.ts "09. ... a double field containing a single digit number": a Double holding 5
# against the Int32 literal 5. Decided against Azurite with Microsoft's "Querying tables and entities":
# "The constant value must be of the same data type as the property in order for the filter to return
# valid results."
table.create_entity({"PartitionKey": "d", "RowKey": "five", "doubleField": EntityProperty(5.0, EdmType.DOUBLE)})
seen["double_vs_int"] = {f: len(list(table.query_entities(f"PartitionKey eq 'd' and {f}")))
                         for f in ["doubleField eq 5", "doubleField gt 4", "doubleField lt 6", "doubleField eq 5.0"]}

# Boolean literals: "All parts of the filter string are case-sensitive" (the same page), so only
# `true` and `false` are literals.
table.create_entity({"PartitionKey": "e", "RowKey": "yes", "flag": True})
seen["boolean_literals"] = {}
for literal in ["true", "True", "FALSE"]:
    try:
        seen["boolean_literals"][literal] = len(list(table.query_entities(f"PartitionKey eq 'e' and flag eq {literal}")))
    except HttpResponseError as error:
        seen["boolean_literals"][literal] = [error.status_code, code(error)]

# table.entity.test.ts "38." (issue #2387): a Double beyond the largest is refused (Azurite: "Test on both
# Product server and Azurite, they are aligned", with InvalidInput); an Int64 beyond its range likewise.
def insert_raw(name, value, edm):
    body = json.dumps({"PartitionKey": "f", "RowKey": name, "v": value, "v@odata.type": edm})
    return raw("POST", "azuritecases", headers={"Content-Type": "application/json"}, body=body)[:2]


seen["double_too_large"] = insert_raw("d1", "1.797693134862316e308", "Edm.Double")
seen["double_largest"] = insert_raw("d2", "1.797693134862315e308", "Edm.Double")
seen["int64_too_large"] = insert_raw("i1", "9223372036854775808", "Edm.Int64")
seen["int64_largest"] = insert_raw("i2", "9223372036854775807", "Edm.Int64")

# table.service.test.ts: Get Table Service Properties answers (Azurite's defaults before any Set), and
# a Set changes what it names and keeps the rest (the REST reference: "only the elements specified").
def properties():
    found = service.get_service_properties()
    logging, minute = found["analytics_logging"], found["minute_metrics"]
    return {"logging": [logging.read, logging.write, logging.delete, logging.retention_policy.enabled, logging.retention_policy.days],
            "minute_metrics": [minute.enabled, minute.retention_policy.enabled],
            "cors": [[rule.allowed_origins, rule.allowed_methods, rule.max_age_in_seconds] for rule in found["cors"]]}


seen["service_properties_default"] = properties()
service.set_service_properties(
    analytics_logging=TableAnalyticsLogging(read=True, write=False, delete=True, retention_policy=TableRetentionPolicy(enabled=True, days=5)),
    cors=[TableCorsRule(["https://speakeasy.example"], ["GET", "PUT"], max_age_in_seconds=60)])
seen["service_properties_set"] = properties()
service.set_service_properties(cors=[])
seen["service_properties_cors_cleared"] = properties()
status, error, _ = raw("PUT", "", "restype=service&comp=properties", headers={"Content-Type": "application/xml"},
                       body="<StorageServiceProperties><Logging><Version>1.0</Version></Logging></StorageServiceProperties>")
seen["service_properties_invalid"] = [status, error]

# Issue 28 §1: Set and Get Table ACL, and a table SAS that names a stored access policy (si) takes its
# expiry and permissions from the policy; one that repeats what the policy gives is refused, and
# replacing the policies revokes it.
table.set_table_access_policy({"readers": TableAccessPolicy(permission="r", expiry=datetime.now(timezone.utc) + timedelta(hours=1)),
                               "empty": None})
acl = table.get_table_access_policy()
seen["table_acl"] = sorted([name, policy.permission if policy else None] for name, policy in acl.items())
by_policy = TableClient(endpoint=endpoint, table_name="azuritecases",
                        credential=AzureSasCredential(generate_table_sas(credential, "azuritecases", policy_id="readers")))
seen["si_read"] = outcome(lambda: list(by_policy.query_entities("PartitionKey eq 'p'")))
seen["si_write"] = outcome(lambda: by_policy.create_entity({"PartitionKey": "si", "RowKey": "1"}))
doubled = TableClient(endpoint=endpoint, table_name="azuritecases", credential=AzureSasCredential(
    generate_table_sas(credential, "azuritecases", policy_id="readers", permission="r")))
seen["si_doubled"] = outcome(lambda: list(doubled.query_entities("PartitionKey eq 'p'")))
seen["table_acl_sas"] = outcome(lambda: by_policy.get_table_access_policy())
table.set_table_access_policy({})
seen["si_revoked"] = outcome(lambda: list(by_policy.query_entities("PartitionKey eq 'p'")))

service.delete_table("azuritecases")
print(json.dumps(seen, sort_keys=True))
