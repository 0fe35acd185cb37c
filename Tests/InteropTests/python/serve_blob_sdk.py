"""Drives a running `serve` with azure-storage-blob 12.31.1, the official Blob client, and prints what it saw.

    python serve_blob_sdk.py BLOB_ENDPOINT

BLOB_ENDPOINT is http://127.0.0.1:PORT/devstoreaccount1. The client is given the development
account's published key in a connection string, exactly as a user would. Every call goes through
the SDK's own request building, signing, response parsing and error mapping; an answer it cannot
read raises, and the test fails. The printed JSON holds the observations the Swift test checks.
"""

import hashlib
import json
import sys
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone

from azure.core.exceptions import ClientAuthenticationError, HttpResponseError, ResourceExistsError, ResourceNotFoundError
from azure.storage.blob import BlobSasPermissions, BlobServiceClient, ContentSettings, generate_blob_sas

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

endpoint = sys.argv[1]
connection = f"DefaultEndpointsProtocol=http;AccountName={ACCOUNT};AccountKey={KEY};BlobEndpoint={endpoint};"
# Small single-put and block sizes, so that a blob of a few KB goes up in blocks.
service = BlobServiceClient.from_connection_string(connection, max_single_put_size=1024, max_block_size=512)
seen = {}


def anonymous(url):
    try:
        with urllib.request.urlopen(url) as reply:
            return reply.status, hashlib.md5(reply.read()).hexdigest()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("x-ms-error-code")


photos = service.create_container("photos", public_access="blob")
private = service.create_container("private")
listed = service.create_container("listed", public_access="container")
try:
    service.create_container("photos")
    seen["duplicate_container"] = "created"
except ResourceExistsError as error:
    seen["duplicate_container"] = error.error_code

photo = bytes(range(256)) * 3
photos.upload_blob("speakers/ada.jpg", photo, content_settings=ContentSettings(content_type="image/jpeg"))
large = bytes((i * 7) % 251 for i in range(5000))
photos.upload_blob("large.bin", large)
for name in ["a", "b", "c", "d", "e"]:
    listed.upload_blob(f"list/{name}.txt", name.encode())
private.upload_blob("secret.txt", b"secret")

properties = photos.get_blob_client("speakers/ada.jpg").get_blob_properties()
seen["photo_properties"] = {
    "size": properties.size,
    "content_type": properties.content_settings.content_type,
    "md5": properties.content_settings.content_md5.hex() if properties.content_settings.content_md5 else None,
    "etag": properties.etag,
    "blob_type": str(properties.blob_type),
}
seen["photo_md5"] = hashlib.md5(photo).hexdigest()
seen["photo_download"] = hashlib.md5(photos.download_blob("speakers/ada.jpg").readall()).hexdigest()
seen["large_md5"] = hashlib.md5(large).hexdigest()
seen["large_download"] = hashlib.md5(photos.download_blob("large.bin").readall()).hexdigest()
seen["large_size"] = photos.get_blob_client("large.bin").get_blob_properties().size
seen["range"] = list(photos.download_blob("large.bin", offset=100, length=50).readall()) == list(large[100:150])

pages = [[blob.name for blob in page] for page in listed.list_blobs(name_starts_with="list/", results_per_page=2).by_page()]
seen["pages"] = pages
seen["containers"] = sorted(c.name for c in service.list_containers())
seen["access"] = {c.name: c.public_access for c in service.list_containers()}

seen["anonymous"] = {
    "photo": anonymous(f"{endpoint}/photos/speakers/ada.jpg"),
    "private": anonymous(f"{endpoint}/private/secret.txt"),
    "photos_list": anonymous(f"{endpoint}/photos?restype=container&comp=list"),
    "listed_list": anonymous(f"{endpoint}/listed?restype=container&comp=list")[0],
}

try:
    photos.download_blob("missing.jpg").readall()
    seen["missing"] = "found"
except ResourceNotFoundError as error:
    seen["missing"] = error.error_code

wrong = BlobServiceClient.from_connection_string(
    f"DefaultEndpointsProtocol=http;AccountName={ACCOUNT};AccountKey={'A' * 86}==;BlobEndpoint={endpoint};")
try:
    list(wrong.list_containers())
    seen["wrong_key"] = "listed"
except ClientAuthenticationError as error:
    seen["wrong_key"] = error.error_code

start = datetime.now(timezone.utc) - timedelta(minutes=5)
sas = generate_blob_sas(ACCOUNT, "private", "secret.txt", account_key=KEY, permission=BlobSasPermissions(read=True),
                        start=start, expiry=start + timedelta(hours=1))
from azure.storage.blob import BlobClient
reader = BlobClient.from_blob_url(f"{endpoint}/private/secret.txt?{sas}")
seen["sas_read"] = reader.download_blob().readall().decode()
try:
    reader.upload_blob(b"overwritten", overwrite=True)
    seen["sas_write"] = "written"
except HttpResponseError as error:
    seen["sas_write"] = error.error_code

photos.delete_blob("speakers/ada.jpg")
seen["after_delete"] = [blob.name for blob in photos.list_blobs()]
service.delete_container("private")
seen["containers_after"] = sorted(c.name for c in service.list_containers())
print(json.dumps(seen))
