"""Drives a running `serve` with azure-storage-blob 12.31.1: List Blobs with
`include=uncommittedblobs`, flat and with a delimiter, and prints what it saw.

    python serve_uncommitted_listing.py BLOB_ENDPOINT

Cases ported from Azurite's blob tests (Azure/Azurite, tests/blob/apis/):
- container.test.ts "should only show uncommitted blobs in listBlobHierarchySegment with
  uncommittedblobs option" (a folder that holds only a staged blob is a prefix with the option, and
  absent without it), and the flat case beside it;
- blockblob.test.ts "stageBlock" (a staged-only blob is listed with a content length of 0).
Every call goes through the SDK's own request building, signing and parsing.
"""

import json
import sys

from azure.storage.blob import BlobServiceClient

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

endpoint = sys.argv[1]
connection = f"DefaultEndpointsProtocol=http;AccountName={ACCOUNT};AccountKey={KEY};BlobEndpoint={endpoint};"
service = BlobServiceClient.from_connection_string(connection)
seen = {}

container = service.create_container("staged")
container.get_blob_client("path/uncommittedblob").stage_block("MQ==", b"HelloWorld")
container.get_blob_client("b").stage_block("MQ==", b"HelloWorld")
container.get_blob_client("b").stage_block("Mg==", b"HelloWorld")
for name in ["a", "c", "dir/kept"]:
    container.upload_blob(name, b"hello")

seen["flat"] = [item.name for item in container.list_blobs()]
listed = list(container.list_blobs(include=["uncommittedblobs"]))
seen["flat_uncommitted"] = [item.name for item in listed]
staged = next(item for item in listed if item.name == "b")
seen["staged_size"] = staged.size
seen["staged_etag"] = staged.etag
seen["staged_last_modified"] = None if staged.last_modified is None else str(staged.last_modified)
seen["staged_content_type"] = staged.content_settings.content_type
seen["committed_size"] = next(item for item in listed if item.name == "a").size
seen["walk"] = [item.name for item in container.walk_blobs(delimiter="/")]
seen["walk_uncommitted"] = [item.name for item in container.walk_blobs(include=["uncommittedblobs"], delimiter="/")]
seen["walk_inside"] = [
    item.name for item in container.walk_blobs(name_starts_with="path/", include=["uncommittedblobs"], delimiter="/")]
pages = []
for page in container.list_blobs(include=["uncommittedblobs"], results_per_page=2).by_page():
    pages.append([item.name for item in page])
seen["pages"] = pages
walk_pages = []
for page in container.walk_blobs(include=["uncommittedblobs"], delimiter="/", results_per_page=2).by_page():
    walk_pages.append([item.name for item in page])
seen["walk_pages"] = walk_pages
print(json.dumps(seen))
