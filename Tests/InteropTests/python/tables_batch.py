"""Runs one entity group transaction through azure-data-tables 12.7.0's own TableClient, against a
stand-in server on loopback that records the request and answers with a body we give it.

    python tables_batch.py SCRATCH                        # record the request only
    python tables_batch.py SCRATCH RESPONSE CONTENT_TYPE  # also answer 202 with RESPONSE's bytes

The SDK's own code builds the multipart/mixed request (TableClient.submit_transaction) and reads the
answer (its multipart parsing, _decode_error, TableTransactionError with the failing index); the
stand-in server only stores bytes and replays bytes, nothing here imitates the SDK or the service.

Writes SCRATCH/request.bin and SCRATCH/request-content-type.txt, and prints one JSON object:
{"outcome": "ok", "results": [{"etag": …}, …]} or {"outcome": "error", "status": …, "code": …,
"index": …, "type": …}.
"""

import json
import sys
import threading
import uuid
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, HTTPServer

from azure.core.credentials import AzureNamedKeyCredential
from azure.data.tables import EdmType, EntityProperty, TableClient, TableTransactionError, UpdateMode

KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

# The operations the Swift test expects, in order (see TableBatchInteropTests).
ENTITY = {
    "PartitionKey": "speaker",
    "RowKey": "ada",
    "Name": "Ada Lovelace",
    "SessionCount": 3,
    "Followers": EntityProperty(1099511627776, EdmType.INT64),
    "Rating": 4.5,
    "Verified": True,
    "FirstTalk": datetime(1843, 7, 1, 9, 0, 0, tzinfo=timezone.utc),
    "SpeakerId": uuid.UUID("c9da6455-213d-42c9-9a79-3e9149a57833"),
    "Avatar": b"\x00\x01hi",
}
OPERATIONS = [
    ("create", ENTITY, {}),
    ("upsert", {"PartitionKey": "speaker", "RowKey": "O'Brien", "Name": "Pat"}, {"mode": UpdateMode.REPLACE}),
    ("upsert", {"PartitionKey": "speaker", "RowKey": "grace", "Talks": 2}, {"mode": UpdateMode.MERGE}),
    ("update", {"PartitionKey": "speaker", "RowKey": "linus", "Talks": 1}, {"mode": UpdateMode.REPLACE}),
    ("update", {"PartitionKey": "speaker", "RowKey": "ken", "Talks": 5}, {"mode": UpdateMode.MERGE}),
    ("delete", {"PartitionKey": "speaker", "RowKey": "old"}, {}),
]


def main(scratch, response_path=None, content_type=None):
    response_body = open(response_path, "rb").read() if response_path else b"{}"

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            with open(f"{scratch}/request.bin", "wb") as out:
                out.write(body)
            with open(f"{scratch}/request-content-type.txt", "w") as out:
                out.write(self.headers.get("Content-Type", ""))
            self.send_response(202 if response_path else 400)
            self.send_header("Content-Type", content_type or "application/json")
            self.send_header("Content-Length", str(len(response_body)))
            self.end_headers()
            self.wfile.write(response_body)

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    endpoint = f"http://127.0.0.1:{server.server_port}/devstoreaccount1"
    client = TableClient(endpoint, "speakers", credential=AzureNamedKeyCredential("devstoreaccount1", KEY), retry_total=0)
    try:
        results = client.submit_transaction(OPERATIONS)
        print(json.dumps({"outcome": "ok", "results": [{"etag": r.get("etag")} for r in results]}))
    except TableTransactionError as error:
        print(json.dumps({"outcome": "error", "type": "TableTransactionError", "status": error.status_code, "code": str(error.error_code), "index": error.index}))
    except Exception as error:  # the record-only run: the stand-in answered 400
        status = getattr(error, "status_code", None)
        print(json.dumps({"outcome": "error", "type": type(error).__name__, "status": status, "code": None, "index": None}))
    finally:
        server.shutdown()


if __name__ == "__main__":
    main(*sys.argv[1:])
