"""Drives a running `serve` with azure-storage-blob 12.31.1: metadata, content headers, SAS header
overrides, List Blobs with a delimiter, Get Block List and Put Blob's ETags, and prints what it saw.

    python serve_blob_properties.py BLOB_ENDPOINT

Cases ported from Azurite's blob tests (Azure/Azurite, tests/blob/apis/):
- blob.test.ts "should setMetadata with new metadata set", "should fail when setMetadata with invalid
  metadata name with hyphen", "should fail when upload has metadata names that are invalid C#
  identifiers" (1invalid, invalid.name, invalid-name → 400 InvalidMetadata),
  "should get the correct properties set based on set HTTP headers", "setHTTPHeaders with default
  parameters" (Set Blob Properties clears what it is not given), "upload invalid x-ms-blob-content-md5";
- blockblob.test.ts "getBlockList", "commitBlockList with all parameters set";
- container.test.ts "listBlobHierarchySegment with default parameters" (BlobPrefix among blobs).
Every call goes through the SDK's own request building, signing and parsing.
"""

import json
import sys
from datetime import datetime, timedelta, timezone

from azure.core import MatchConditions
from azure.core.exceptions import HttpResponseError
from azure.storage.blob import BlobBlock, BlobClient, BlobSasPermissions, BlobServiceClient, ContentSettings, generate_blob_sas

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

endpoint = sys.argv[1]
connection = f"DefaultEndpointsProtocol=http;AccountName={ACCOUNT};AccountKey={KEY};BlobEndpoint={endpoint};"
service = BlobServiceClient.from_connection_string(connection)
seen = {}


def code(call):
    try:
        call()
        return "ok"
    except HttpResponseError as error:
        return error.error_code


def settings(properties):
    content = properties.content_settings
    return {
        "content_type": content.content_type, "cache_control": content.cache_control,
        "content_disposition": content.content_disposition, "content_encoding": content.content_encoding,
        "content_language": content.content_language,
    }


docs = service.create_container("docs", metadata={"owner": "speakers", "Team": "events"})
seen["container_metadata"] = docs.get_container_properties().metadata
docs.set_container_metadata({"changed": "yes"})
seen["container_metadata_set"] = docs.get_container_properties().metadata
seen["container_listed_metadata"] = {c.name: c.metadata for c in service.list_containers(include_metadata=True)}

headers = ContentSettings(
    content_type="text/plain", cache_control="max-age=60", content_disposition="attachment; filename=a.txt",
    content_encoding="identity", content_language="en-GB")
blob = docs.get_blob_client("a.txt")
first = blob.upload_blob(b"same bytes", metadata={"mtime": "1700000000.5", "Owner": "ada"}, content_settings=headers)
properties = blob.get_blob_properties()
seen["put_metadata"] = properties.metadata
seen["put_settings"] = settings(properties)
download = blob.download_blob()
seen["get_metadata"] = download.properties.metadata
seen["get_settings"] = settings(download.properties)

# Put Blob always writes anew: the same bytes again get a new ETag and Last-Modified.
second = blob.upload_blob(b"same bytes", overwrite=True, metadata={"mtime": "1700000000.5", "Owner": "ada"}, content_settings=headers)
seen["new_etag"] = first["etag"] != second["etag"]
seen["if_match_old"] = code(lambda: blob.set_blob_metadata({"x": "1"}, etag=first["etag"], match_condition=MatchConditions.IfNotModified))

blob.set_blob_metadata({"replaced": "true"})
seen["set_metadata"] = blob.get_blob_properties().metadata
blob.set_http_headers(ContentSettings(content_type="application/json", cache_control="no-cache"))
after = blob.get_blob_properties()
seen["set_settings"] = settings(after)
seen["metadata_after_set_headers"] = after.metadata
seen["listed"] = [
    {"name": b.name, "metadata": b.metadata, **settings(b)} for b in docs.list_blobs(include=["metadata"])]

seen["invalid_metadata"] = {
    name: code(lambda name=name: docs.upload_blob("bad.txt", b"x", metadata={name: "value"}, overwrite=True))
    for name in ["1invalid", "invalid.name", "invalid-name"]}
seen["invalid_set_metadata"] = code(lambda: blob.set_blob_metadata({"Content-SHA256": "a"}))


def bad_md5(request):
    """A malformed x-ms-blob-content-md5, as Azurite's test adds with a pipeline policy."""
    request.http_request.headers["x-ms-blob-content-md5"] = "invalid-md5"


seen["invalid_md5"] = code(lambda: docs.upload_blob("md5.txt", b"hello", overwrite=True, raw_request_hook=bad_md5))

# A SAS may override the reply's content headers (rsct, rscc, rscd, rsce, rscl).
start = datetime.now(timezone.utc) - timedelta(minutes=5)
sas = generate_blob_sas(
    ACCOUNT, "docs", "a.txt", account_key=KEY, permission=BlobSasPermissions(read=True), start=start, expiry=start + timedelta(hours=1),
    content_type="text/csv", cache_control="private", content_disposition="inline", content_encoding="gzip", content_language="fr")
overridden = BlobClient.from_blob_url(f"{endpoint}/docs/a.txt?{sas}").get_blob_properties()
seen["sas_overrides"] = settings(overridden)

# Blocks: the committed list in order, the staged ones apart; metadata and headers with the list.
blocks = docs.get_blob_client("blocks.bin")
for block_id in ["MQ==", "Mg==", "Mw=="]:
    blocks.stage_block(block_id, b"HelloWorld")
blocks.commit_block_list(
    [BlobBlock("Mg=="), BlobBlock("MQ==")], metadata={"kind": "blocks"},
    content_settings=ContentSettings(content_type="application/x-test", content_language="de"))
blocks.stage_block("NA==", b"staged")
committed, uncommitted = blocks.get_block_list("all")
seen["block_list"] = {"committed": [[b.id, b.size] for b in committed], "uncommitted": [[b.id, b.size] for b in uncommitted]}
seen["block_list_committed"] = [[b.id, b.size] for b in blocks.get_block_list("committed")[0]]
block_properties = blocks.get_blob_properties()
seen["block_blob"] = {"metadata": block_properties.metadata, **settings(block_properties)}

# A hierarchy: walk_blobs with "/" and list_blobs paged with a delimiter.
tree = service.create_container("tree")
for name in ["a.txt", "photos/2024/1.jpg", "photos/2024/2.jpg", "photos/cover.jpg", "photos0.txt", "z/deep/x.txt", "zz.txt"]:
    tree.upload_blob(name, b"x")
seen["walk_top"] = [item.name for item in tree.walk_blobs(delimiter="/")]
seen["walk_photos"] = [item.name for item in tree.walk_blobs(name_starts_with="photos/", delimiter="/")]
pages = []
for page in tree.walk_blobs(delimiter="/", results_per_page=2).by_page():
    pages.append([item.name for item in page])
seen["walk_pages"] = pages


def flatten(prefix):
    names = []
    for item in tree.walk_blobs(name_starts_with=prefix, delimiter="/"):
        names += flatten(item.name) if item.name.endswith("/") else [item.name]
    return names


seen["walk_recursive"] = flatten("")
print(json.dumps(seen))
