"""Reads a seeded store through `serve` with azure-data-tables 12.7.0 and plain urllib, as a user would.

    python serve_seeded.py TABLE_ENDPOINT BLOB_PORT EVENTS_DUMP

TABLE_ENDPOINT is http://127.0.0.1:PORT/devstoreaccount1. The script
- queries partition `Events` of table `events` through the SDK (every page, however the server
  pages it) and writes the canonical dump (canonical.py) of what the SDK read to EVENTS_DUMP;
- queries partition `speakers`, and downloads every speaker's `ImageUrl` anonymously with urllib,
  as a browser would. `seed` writes the URLs for Azurite's blob port, 10000; the test's server
  listens on a free port, BLOB_PORT, so only the port of each URL is replaced.

It prints one JSON object: {"speakers": [{"RowKey", "ImageUrl", "status", "content_type", "md5", "size"}, ...]},
with md5 the base64 of the downloaded bytes' MD5, as Azure's Content-MD5.
"""

import base64
import hashlib
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

from azure.data.tables import TableServiceClient

from tables_json_read import entity_line

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="


def download(url, port):
    parts = urllib.parse.urlsplit(url)
    local = parts._replace(netloc=f"{parts.hostname}:{port}").geturl()
    try:
        with urllib.request.urlopen(local, timeout=30) as response:
            body = response.read()
            return response.status, response.headers.get("Content-Type"), base64.b64encode(hashlib.md5(body).digest()).decode("ascii"), len(body)
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type"), None, None


def main(endpoint, blob_port, events_dump):
    connection = f"DefaultEndpointsProtocol=http;AccountName={ACCOUNT};AccountKey={KEY};TableEndpoint={endpoint};"
    table = TableServiceClient.from_connection_string(connection).get_table_client("events")

    events = table.query_entities("PartitionKey eq @partition", parameters={"partition": "Events"})
    with open(events_dump, "w", encoding="utf-8") as handle:
        for entity in events:
            handle.write(entity_line(entity) + "\n")

    speakers = []
    for entity in table.query_entities("PartitionKey eq 'speakers'"):
        url = entity.get("ImageUrl")
        status, content_type, md5, size = download(url, blob_port)
        speakers.append({"RowKey": entity["RowKey"], "ImageUrl": url, "status": status, "content_type": content_type, "md5": md5, "size": size})
    print(json.dumps({"speakers": speakers}))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: serve_seeded.py TABLE_ENDPOINT BLOB_PORT EVENTS_DUMP")
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
