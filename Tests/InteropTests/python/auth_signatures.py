"""Makes SAS tokens and Shared Key signatures with the official SDKs' own code, as JSON lines.

    python auth_signatures.py

Each line is one case: {"kind": "sas", ...} with the token the SDK generated (and, for the blob SDK,
the string to sign its `sts_hook` reports), or {"kind": "sharedkey", ...} with a request and the
Authorization header the SDK's SharedKeyCredentialPolicy put on it. Nothing is sent anywhere: the
policies sign a request object in memory. The Swift side checks that our code produces and accepts
exactly these.
"""

import json
from datetime import datetime, timezone

from azure.core.credentials import AzureNamedKeyCredential
from azure.core.pipeline import PipelineContext, PipelineRequest
from azure.core.pipeline.transport import HttpRequest

from azure.data.tables import (
    generate_table_sas,
    generate_account_sas as generate_table_account_sas,
    TableSasPermissions,
    AccountSasPermissions as TableAccountSasPermissions,
    ResourceTypes as TableResourceTypes,
)
from azure.data.tables._authentication import SharedKeyCredentialPolicy as TableSharedKeyPolicy
from azure.storage.blob import (
    generate_blob_sas,
    generate_container_sas,
    generate_account_sas as generate_blob_account_sas,
    BlobSasPermissions,
    ContainerSasPermissions,
    AccountSasPermissions as BlobAccountSasPermissions,
    ResourceTypes as BlobResourceTypes,
)
from azure.storage.blob._shared.authentication import SharedKeyCredentialPolicy as BlobSharedKeyPolicy
from azure.storage.blob._shared.authentication import _storage_header_sort
from azure.storage import AccessPolicy, SharedAccessPolicy, StorageTableSharedKeyAuthentication
from azure.storage._http import HTTPRequest as LegacyRequest
from azure.storage.table import TableService
from azure.storage.blob.blobservice import BlobService  # azure-storage 0.20.3, beside azure-storage-blob

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
CREDENTIAL = AzureNamedKeyCredential(ACCOUNT, KEY)
START = datetime(2024, 5, 1, tzinfo=timezone.utc)
EXPIRY = datetime(2024, 5, 2, tzinfo=timezone.utc)
DATE = "Tue, 14 Sep 2021 21:24:20 GMT"


def emit(case):
    print(json.dumps(case, ensure_ascii=False, sort_keys=True))


def sas(name, service, target, token, string_to_sign=None):
    emit({"kind": "sas", "name": name, "service": service, "target": target, "token": token, "stringToSign": string_to_sign})


def table_sas_cases():
    sas("table: read/add, partition range, https,http", "table", {"table": "Speakers"},
        generate_table_sas(CREDENTIAL, "Speakers", permission=TableSasPermissions(read=True, add=True), start=START, expiry=EXPIRY,
                           protocol="https,http", start_pk="speaker", end_pk="speaker"))
    sas("table: every permission, row range, no start", "table", {"table": "events"},
        generate_table_sas(CREDENTIAL, "events", permission=TableSasPermissions(read=True, add=True, update=True, delete=True),
                           expiry=EXPIRY, start_pk="2024", start_rk="a b/c", end_pk="2025", end_rk="z+é"))
    sas("table: https only", "table", {"table": "speakers"},
        generate_table_sas(CREDENTIAL, "speakers", permission="r", start=START, expiry=EXPIRY, protocol="https"))
    sas("table account: ss=t srt=oc sp=rl", "table", {"service": True},
        generate_table_account_sas(CREDENTIAL, resource_types=TableResourceTypes(container=True, object=True),
                                   permission=TableAccountSasPermissions(read=True, list=True), expiry=EXPIRY, start=START))
    sas("table account: every resource type, write/delete", "table", {"service": True},
        generate_table_account_sas(CREDENTIAL, resource_types=TableResourceTypes(service=True, container=True, object=True),
                                   permission="rwdlacu", expiry=EXPIRY, start=START, protocol="https"))


def legacy_sas_cases():
    # azure-storage 0.20.3 signs the 2014-02-14 layout, and the table name as given (not lower-cased).
    service = TableService(ACCOUNT, KEY)
    for table in ["speakers", "Speakers"]:
        policy = SharedAccessPolicy(AccessPolicy(start="2024-05-01T00:00:00Z", expiry="2024-05-02T00:00:00Z", permission="raud"))
        sas(f"azure-storage 0.20.3 table SAS for {table}", "table", {"table": table}, service.generate_shared_access_signature(table, policy))
    # Its blob SAS: the 2013-08-15 layout, resource /account/container[/blob] without the /blob/ prefix.
    blobs = BlobService(ACCOUNT, KEY)
    policy = SharedAccessPolicy(AccessPolicy(start="2024-05-01T00:00:00Z", expiry="2024-05-02T00:00:00Z", permission="r"))
    sas("azure-storage 0.20.3 blob SAS", "blob", {"container": "photos", "blob": "speakers/ada.jpg"},
        blobs.generate_shared_access_signature("photos", "speakers/ada.jpg", policy, content_type="image/jpeg"))
    policy = SharedAccessPolicy(AccessPolicy(start="2024-05-01T00:00:00Z", expiry="2024-05-02T00:00:00Z", permission="rl"))
    sas("azure-storage 0.20.3 container SAS", "blob", {"container": "photos"}, blobs.generate_shared_access_signature("photos", None, policy))


def blob_sas_cases():
    hooked = []
    token = generate_blob_sas(ACCOUNT, "photos", "speakers/ada.jpg", account_key=KEY, permission=BlobSasPermissions(read=True),
                              start=START, expiry=EXPIRY, protocol="https,http", sts_hook=hooked.append)
    sas("blob: read one blob", "blob", {"container": "photos", "blob": "speakers/ada.jpg"}, token, hooked[-1])
    token = generate_blob_sas(ACCOUNT, "photos", "a b/ü.jpg", account_key=KEY, permission=BlobSasPermissions(create=True, write=True),
                              expiry=EXPIRY, content_type="image/jpeg", cache_control="no-cache", sts_hook=hooked.append)
    sas("blob: create/write, header overrides, odd name", "blob", {"container": "photos", "blob": "a b/ü.jpg"}, token, hooked[-1])
    token = generate_container_sas(ACCOUNT, "photos", account_key=KEY, permission=ContainerSasPermissions(read=True, list=True),
                                   start=START, expiry=EXPIRY, sts_hook=hooked.append)
    sas("container: read/list", "blob", {"container": "photos"}, token, hooked[-1])
    token = generate_blob_account_sas(ACCOUNT, KEY, resource_types=BlobResourceTypes(service=True, container=True, object=True),
                                      permission=BlobAccountSasPermissions(read=True, list=True), expiry=EXPIRY, start=START,
                                      sts_hook=hooked.append)
    sas("blob account: ss=b srt=sco sp=rl", "blob", {"service": True}, token, hooked[-1])


def sign_table(method, url, headers, lite=False):
    request = HttpRequest(method, url, headers=dict(headers))
    TableSharedKeyPolicy(CREDENTIAL).on_request(PipelineRequest(request, PipelineContext(None)))
    return request


def sign_blob(method, url, headers):
    request = HttpRequest(method, url, headers=dict(headers))
    BlobSharedKeyPolicy(ACCOUNT, KEY).on_request(PipelineRequest(request, PipelineContext(None)))
    return request


def sign_legacy_table(method, path, headers):
    request = LegacyRequest()
    request.method = method
    request.path = path
    request.headers = list(headers.items())
    request.query = []
    StorageTableSharedKeyAuthentication(ACCOUNT, KEY).sign_request(request)
    return dict(request.headers)


def sharedkey(name, service, request):
    path, _, query = request.url.split("://", 1)[1].partition("/")[2].partition("?")
    emit({
        "kind": "sharedkey", "name": name, "service": service, "method": request.method, "path": "/" + path, "query": query,
        "headers": [[k, v] for k, v in request.headers.items() if k.lower() != "authorization"],
        "authorization": request.headers["Authorization"],
    })


def sharedkey_cases():
    base = {"x-ms-date": DATE, "x-ms-version": "2019-02-02", "DataServiceVersion": "3.0"}
    sharedkey("table: insert", "table", sign_table(
        "POST", "http://127.0.0.1:10002/devstoreaccount1/speakers", {**base, "Content-Type": "application/json;odata=nometadata"}))
    sharedkey("table: query with $filter and $top", "table", sign_table(
        "GET", "http://127.0.0.1:10002/devstoreaccount1/speakers()?$filter=PartitionKey%20eq%20%27a%27&$top=5", base))
    sharedkey("table: entity by keys with an encoded quote", "table", sign_table(
        "DELETE", "http://127.0.0.1:10002/devstoreaccount1/speakers(PartitionKey='a',RowKey='b%20c')", {**base, "If-Match": "*"}))
    sharedkey("table: get ACL (comp)", "table", sign_table(
        "GET", "http://127.0.0.1:10002/devstoreaccount1/speakers?comp=acl", base))
    # azure-storage 0.20.3 sends Date beside x-ms-date and signs Date (here a second later, to tell them apart).
    legacy = {"x-ms-version": "2014-02-14", "x-ms-date": DATE, "Date": "Tue, 14 Sep 2021 21:24:21 GMT", "DataServiceVersion": "2.0;NetFx",
              "Content-Type": "application/atom+xml"}
    signed = sign_legacy_table("GET", "/devstoreaccount1/speakers()", legacy)
    emit({"kind": "sharedkey", "name": "azure-storage 0.20.3 table query (signs Date)", "service": "table", "method": "GET",
          "path": "/devstoreaccount1/speakers()", "query": "", "headers": [[k, v] for k, v in legacy.items()],
          "authorization": signed["Authorization"], "signsDate": True})
    blob = {"x-ms-date": DATE, "x-ms-version": "2026-10-06"}
    sharedkey("blob: put with metadata in the service's header order", "blob", sign_blob(
        "PUT", "http://127.0.0.1:10000/devstoreaccount1/photos/speakers/ada.jpg",
        {**blob, "Content-Length": "11", "Content-Type": "image/jpeg", "x-ms-blob-type": "BlockBlob",
         "x-ms-meta-ab-c": "1", "x-ms-meta-a_b": "2", "x-ms-meta-abc": "3", "x-ms-client-request-id": "c0ffee"}))
    sharedkey("blob: empty put (Content-Length 0), If-None-Match", "blob", sign_blob(
        "PUT", "http://127.0.0.1:10000/devstoreaccount1/photos?restype=container", {**blob, "Content-Length": "0", "If-None-Match": "*"}))
    sharedkey("blob: list with an encoded prefix, + and a marker", "blob", sign_blob(
        "GET", "http://127.0.0.1:10000/devstoreaccount1/photos?restype=container&comp=list&prefix=a%2Bb%20c%2F&marker=%2Fdevstoreaccount1%2Fx",
        blob))
    sharedkey("blob: ranged get with an encoded name", "blob", sign_blob(
        "GET", "http://127.0.0.1:10000/devstoreaccount1/photos/a%20b/%C3%BC.jpg", {**blob, "x-ms-range": "bytes=0-33554431"}))


def collation_case():
    # The order azure-storage-blob gives x-ms-* names, emulating the service's collation.
    names = ["x-ms-meta-a", "x-ms-meta-a-b", "x-ms-meta-a_b", "x-ms-meta-ab", "x-ms-meta-a-c", "x-ms-meta-a'b", "x-ms-meta-a1",
             "x-ms-meta-b", "x-ms-meta--", "x-ms-meta-a--b", "x-ms-meta-a.b", "x-ms-meta-a~b", "x-ms-meta-abc", "x-ms-meta-ab-c",
             "x-ms-date", "x-ms-version", "x-ms-blob-type", "x-ms-meta-z9", "x-ms-meta-z_", "x-ms-meta-_z"]
    emit({"kind": "collation", "name": "x-ms header order", "service": "blob",
          "names": [name for name, _ in _storage_header_sort([(name, "") for name in reversed(names)])]})


table_sas_cases()
legacy_sas_cases()
collation_case()
blob_sas_cases()
sharedkey_cases()
